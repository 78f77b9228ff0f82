import { css } from 'lit';

export default css`
  .layout {
    display: grid;
    grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
    gap: 2rem;
    align-items: start;
  }
  @media (max-width: 60rem) {
    .layout {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  fieldset.item {
    border-style: dashed;
  }
  details.intent {
    border: 1px dashed var(--aicd-border, #d5d9df);
    border-radius: 6px;
    padding: 0.4rem 0.8rem;
    margin-bottom: 0.6rem;
  }
  details.intent summary {
    cursor: pointer;
    padding: 0.2rem 0;
  }
  .side {
    position: sticky;
    top: 1rem;
  }
  .preview {
    display: block;
    height: 28rem;
    --ai-chat-height: 28rem;
  }
  /*
   * A page of the preview's own: the launcher's fixed position is taken within it (a transformed
   * box contains fixed descendants), in the corner the form chose, its panel opening above.
   */
  .preview-page {
    position: relative;
    height: 34rem;
    transform: translateZ(0);
    border: 1px dashed var(--aicd-border, #d5d9df);
    border-radius: 6px;
    overflow: hidden;
    --ai-chat-height: 26rem;
    --ai-chat-width: 20rem;
    --ai-chat-offset: 12px;
  }
  .appearance .color-row {
    display: flex;
    align-items: end;
    gap: 0.8rem;
  }
  .appearance input[type='color'] {
    width: 4rem;
    height: 2.2rem;
    padding: 0.1rem;
  }
  /* A checkbox sits before its label text, on one line (labels are columns elsewhere). */
  label.check {
    flex-direction: row;
    align-items: center;
    gap: 0.5rem;
    font-weight: 400;
    margin-bottom: 0.4rem;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.4rem;
  }
`;
