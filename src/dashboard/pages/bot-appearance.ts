/**
 * The bot editor's "Appearance" section: how the chat widget looks on the bot's sites — its
 * colour, the launcher's corner and icon, the name and avatar it shows, the welcome and the quick
 * replies. Its draft, its part of the request and its fieldset live here together; the editor's
 * preview shows the draft as it is typed (`previewProperties`), before any save.
 *
 * The colour, corner, icon, name and welcome are the bot's `appearance`, which the widget applies
 * where the page set no attribute of its own; the avatar and the quick replies are the bot's own
 * `avatar_url` and `quick_replies`. Left empty, each is the widget's default.
 */
import { html, nothing } from 'lit';
import { LAUNCHER_ICONS, type Bot, type BotAppearance, type LauncherIcon } from '../../client/index.js';
import type { FieldErrors } from '../ui/errors.js';
import { labels, t } from '../i18n/i18n.js';
import { field } from '../ui/field.js';

/** The widget's own accent (its styles' `--ai-chat-accent` default), shown while no colour is chosen. */
const DEFAULT_COLOR = '#2563eb';
/** What the icon picker calls each built-in icon, and an image of the site's own. */
const ICON_NAMES = labels<LauncherIcon | 'image'>({ chat: 'bots.speechBubble', help: 'bots.questionMark', image: 'bots.iconImage' });

export interface AppearanceDraft {
  /** `#rrggbb`; empty: the widget's default. */
  color: string;
  /** Empty: the widget's default (bottom right). */
  position: '' | 'bottom-right' | 'bottom-left';
  /** A built-in icon, or `image` for `iconUrl`. */
  icon: LauncherIcon | 'image';
  iconUrl: string;
  botName: string;
  welcome: string;
  /** The bot's `avatar_url`. */
  avatarUrl: string;
}

export function newAppearanceDraft(): AppearanceDraft {
  return { color: '', position: '', icon: 'chat', iconUrl: '', botName: '', welcome: '', avatarUrl: '' };
}

const isBuiltIn = (icon: string | undefined): icon is LauncherIcon => (LAUNCHER_ICONS as readonly string[]).includes(icon ?? 'chat');

export function appearanceDraftOf(bot: Bot): AppearanceDraft {
  const a = bot.appearance;
  const icon = a.launcher_icon;
  return {
    color: a.color ?? '',
    position: a.position ?? '',
    icon: isBuiltIn(icon) ? (icon ?? 'chat') : 'image',
    iconUrl: isBuiltIn(icon) ? '' : icon!,
    botName: a.bot_name ?? '',
    welcome: a.welcome_message ?? '',
    avatarUrl: bot.avatar_url ?? '',
  };
}

/** The request's `appearance` and `avatar_url`: the fields left empty are left out (the widget's defaults). */
export function appearanceRequestOf(d: AppearanceDraft): { appearance: BotAppearance; avatar_url: string | null } {
  const launcherIcon = d.icon === 'image' ? d.iconUrl.trim() : d.icon === 'chat' ? '' : d.icon;
  const appearance: BotAppearance = {
    ...(d.color && { color: d.color }),
    ...(d.position && { position: d.position }),
    ...(launcherIcon && { launcher_icon: launcherIcon }),
    ...(d.botName.trim() && { bot_name: d.botName.trim() }),
    ...(d.welcome.trim() && { welcome_message: d.welcome.trim() }),
  };
  return { appearance, avatar_url: d.avatarUrl.trim() || null };
}

/** The preview widget's properties for this draft: the bot as its sites will show it once saved. */
export function previewProperties(d: AppearanceDraft, bot: Bot) {
  const { appearance, avatar_url } = appearanceRequestOf(d);
  return {
    color: appearance.color ?? '',
    position: appearance.position,
    launcherIcon: appearance.launcher_icon ?? '',
    botName: appearance.bot_name ?? bot.name,
    welcomeMessage: appearance.welcome_message ?? '',
    botAvatar: avatar_url ?? '',
  };
}

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The contrast of the widget's white text and icons on `color` (the visitor's messages, the
 * launcher, Send), e.g. 4.5 for 4.5:1; WCAG asks 4.5:1 of text.
 */
export function contrastOnWhite(color: string): number {
  return 1.05 / (luminance(color) + 0.05);
}

export const APPEARANCE_FIELD_KEYS = [
  'appearance',
  'appearance.color',
  'appearance.position',
  'appearance.launcher_icon',
  'appearance.bot_name',
  'appearance.welcome_message',
  'avatar_url',
];

/**
 * The fieldset. `set` applies a change to the draft; the quick replies are the editor's own field
 * (`quickReplies`), rendered here because the widget shows them.
 */
export function appearanceFieldset(
  d: AppearanceDraft,
  errors: FieldErrors,
  set: (patch: Partial<AppearanceDraft>) => void,
  quickReplies: ReturnType<typeof field>,
) {
  const iconError = errors['appearance.launcher_icon'];
  return html`<fieldset class="appearance">
    <legend>${t('bots.appearance')}</legend>
    <p class="hint" id="appearance-hint">${t('bots.appearanceHint')}</p>
    ${errors.appearance ? html`<p class="field-error" role="alert">${errors.appearance}</p>` : nothing}
    <div class="color-row">
      ${field({
        name: 'appearance.color',
        label: t('bots.colour'),
        hint: d.color ? '' : t('bots.colourHint'),
        type: 'color',
        value: d.color || DEFAULT_COLOR,
        error: errors['appearance.color'],
        onInput: (color) => set({ color }),
      })}
      ${d.color ? html`<button type="button" @click=${() => set({ color: '' })}>${t('bots.defaultColour')}</button>` : nothing}
    </div>
    ${d.color && contrastOnWhite(d.color) < 4.5
      ? html`<p class="hint contrast-warning" role="status">The visitor's messages are white on this colour: ${contrastOnWhite(d.color).toFixed(1)}:1, less than the 4.5:1 that text needs to be read easily. A darker colour reads better.</p>`
      : nothing}
    ${field({
      name: 'appearance.position',
      label: t('bots.launcherCorner'),
      value: d.position || 'bottom-right',
      options: [['bottom-right', t('bots.bottomRight')], ['bottom-left', t('bots.bottomLeft')]],
      error: errors['appearance.position'],
      onInput: (position) => set({ position: position as AppearanceDraft['position'] }),
    })}
    <fieldset class="item">
      <legend>${t('bots.launcherIcon')}</legend>
      ${iconError ? html`<p class="field-error" id="appearance-icon-error">${iconError}</p>` : nothing}
      ${(Object.keys(ICON_NAMES) as AppearanceDraft['icon'][]).map(
        (icon) => html`<label class="check">
          <input type="radio" name="appearance.launcher_icon" value=${icon} .checked=${d.icon === icon}
            aria-invalid=${iconError ? 'true' : 'false'} aria-describedby=${iconError ? 'appearance-icon-error' : nothing}
            @change=${() => set({ icon })} />
          ${ICON_NAMES[icon]}
        </label>`,
      )}
      ${d.icon === 'image'
        ? field({ name: 'appearance.icon_url', label: t('bots.iconUrl'), hint: t('bots.iconUrlHint'), type: 'url', value: d.iconUrl, onInput: (iconUrl) => set({ iconUrl }) })
        : nothing}
    </fieldset>
    ${field({ name: 'appearance.bot_name', label: t('bots.nameShown'), hint: t('bots.nameShownHint'), value: d.botName, error: errors['appearance.bot_name'], onInput: (botName) => set({ botName }) })}
    ${field({ name: 'avatar_url', label: t('bots.avatarUrl'), hint: t('bots.avatarHint'), type: 'url', value: d.avatarUrl, error: errors.avatar_url, onInput: (avatarUrl) => set({ avatarUrl }) })}
    ${field({ name: 'appearance.welcome_message', label: t('bots.welcome'), hint: t('bots.welcomeHint'), multiline: true, rows: 2, value: d.welcome, error: errors['appearance.welcome_message'], onInput: (welcome) => set({ welcome }) })}
    ${quickReplies}
  </fieldset>`;
}
