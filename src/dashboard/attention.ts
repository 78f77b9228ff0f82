/**
 * How the dashboard gets an operator's attention when a visitor asks for a person: a short beep
 * (WebAudio, no sound file; muted when the operator says so, remembered in this browser) and a
 * desktop notification (only once the operator allowed them, from a button, never on load).
 */
import { t } from './i18n/i18n.js';

const MUTED_KEY = 'aicd-sound-muted';

/** Whether the operator muted the beep in this browser. */
export function soundMuted(): boolean {
  try {
    return localStorage.getItem(MUTED_KEY) === '1';
  } catch {
    return false; // storage blocked: sound stays on
  }
}

export function setSoundMuted(muted: boolean): void {
  try {
    if (muted) localStorage.setItem(MUTED_KEY, '1');
    else localStorage.removeItem(MUTED_KEY);
  } catch {
    // storage blocked: muted for this page only
  }
}

let audio: AudioContext | undefined;

/** A 150 ms tone. Browsers may keep audio suspended until the page had a click; then it stays silent. */
export function beep(): void {
  if (soundMuted() || typeof AudioContext === 'undefined') return;
  try {
    audio ??= new AudioContext();
    void audio.resume().catch(() => {});
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.15);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch {
    // no audio device: the badge and the title still say it
  }
}

/** `default`: not asked yet (offer the button); `unsupported`: no Notification API here. */
export function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** A desktop notification for a waiting conversation; clicking it opens the Inbox. Nothing unless allowed. */
export function notifyWaiting(conversationId: string): void {
  if (notificationPermission() !== 'granted') return;
  try {
    const notification = new Notification(t('operator.waitingTitle'), {
      body: t('operator.waitingBody'),
      tag: `aicd-waiting-${conversationId}`, // one per conversation, however many tabs are open
    });
    notification.onclick = () => {
      window.focus();
      location.hash = '#/inbox';
      notification.close();
    };
  } catch {
    // some browsers allow notifications only from a service worker: the badge and the title still say it
  }
}
