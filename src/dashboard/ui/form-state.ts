import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { fieldErrors, type FieldErrors } from './errors.js';
import { focusFirstInvalid } from './field.js';

type Host = ReactiveControllerHost & { renderRoot: ParentNode };

/**
 * The state of one form's save: in progress, the errors the service reported per field, and the
 * rest as one sentence. A failed save moves the focus to the first invalid field, so keyboard and
 * screen reader users land on the problem.
 */
export class FormState implements ReactiveController {
  saving = false;
  errors: FieldErrors = {};
  /** What no field claims (or a non-validation failure), shown above the form. */
  formError = '';

  constructor(private readonly host: Host) {
    host.addController(this);
  }

  hostConnected(): void {}

  reset(): void {
    this.errors = {};
    this.formError = '';
    this.host.requestUpdate();
  }

  /**
   * Shows problems found before anything was sent (a value the form can judge itself), as a refused
   * save shows the service's: at their fields, the focus on the first.
   */
  async refuse(errors: FieldErrors): Promise<void> {
    this.errors = errors;
    this.formError = '';
    this.host.requestUpdate();
    await focusFirstInvalid({ updateComplete: this.host.updateComplete, renderRoot: this.host.renderRoot });
  }

  /** Runs `save`; on failure maps the error onto `fields` and resolves undefined. */
  async submit<T>(fields: readonly string[], save: () => Promise<T>): Promise<T | undefined> {
    this.saving = true;
    this.host.requestUpdate();
    try {
      const result = await save();
      this.errors = {};
      this.formError = '';
      return result;
    } catch (error) {
      const mapped = fieldErrors(error, fields);
      this.errors = mapped.fields;
      this.formError = mapped.rest.join(' ');
      this.host.requestUpdate();
      await focusFirstInvalid({ updateComplete: this.host.updateComplete, renderRoot: this.host.renderRoot });
      return undefined;
    } finally {
      this.saving = false;
      this.host.requestUpdate();
    }
  }
}
