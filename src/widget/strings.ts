/**
 * UI strings of `<ai-chat-widget>`. `en` is complete and is the fallback for every key; the widget
 * picks a table by its `lang` (or the nearest ancestor's), and its `strings` property overrides any
 * key. `{n}` in `rateLimited` is replaced by the seconds left.
 */
export interface WidgetStrings {
  /** Header text when the `title` attribute is not set. */
  title: string;
  openChat: string;
  closeChat: string;
  transcript: string;
  inputLabel: string;
  placeholder: string;
  send: string;
  you: string;
  assistant: string;
  typing: string;
  suggestions: string;
  sources: string;
  /** The Copy button of a code block (and of an answer). */
  copy: string;
  /** Said (and shown) once something is copied. */
  copied: string;
  /** The name of the scrolling region around a table in an answer. */
  table: string;
  retry: string;
  /** Shown under a user message that could not be delivered. */
  notSent: string;
  /** `{n}`: seconds until the queued message is sent. */
  rateLimited: string;
  /** Shown in the status line while the browser is offline. */
  offline: string;
  /** The launcher's label while the panel is open (the header's close button says `closeChat`). */
  hideChat: string;
  /** The counter near the message limit. `{n}`: characters typed; `{max}`: the limit. */
  characterCount: string;
  /** Shown in the status line while the text is over the limit. `{max}`: the limit. */
  tooLong: string;
  errorNetwork: string;
  /** The service did not answer within the widget's `timeout`. */
  errorTimeout: string;
  /** The service answered with a 5xx (or an unreadable error page). */
  errorServer: string;
  errorAuth: string;
  /**
   * The page's chat is set up wrongly (the token URL is missing, refuses this page's origin, or
   * answers something that is not a token): the visitor cannot fix it, the console says how.
   */
  errorSetup: string;
  /** The token endpoint could not be reached at all. */
  errorUnavailable: string;
  errorGeneric: string;
  /** The first assistant bubble when the `welcome-message` attribute is not set. */
  welcome: string;
  /** The button that stops the reply being written (in place of Send). */
  stop: string;
  /** Under a reply the user stopped. */
  stopped: string;
  /** The header's action that clears the conversation (after a confirmation). */
  newConversation: string;
  /** The inline confirmation of `newConversation` (its confirming button says `newConversation`). */
  confirmReset: string;
  cancel: string;
  /** The launcher's unread badge, said politely. `{n}`: replies that arrived while the panel was closed. */
  unread: string;
  /** The teaser bubble's close button. */
  dismiss: string;
  /** The thumbs up and thumbs down under an answer (its Copy button says `copy`, then `copied`). */
  goodAnswer: string;
  badAnswer: string;
  /** The question of the form after a thumbs down. */
  feedbackReason: string;
  /** Its choices, separated by `|`, in this order: incorrect, not helpful, incomplete, other. */
  feedbackReasons: string;
  /** The form's free-text field (label and placeholder); its buttons say `send` and `cancel`. */
  feedbackComment: string;
}

export const en: WidgetStrings = {
  title: 'Chat',
  openChat: 'Open chat',
  closeChat: 'Close chat',
  transcript: 'Conversation',
  inputLabel: 'Message',
  placeholder: 'Type a message…',
  send: 'Send',
  you: 'You',
  assistant: 'Assistant',
  typing: 'Assistant is typing…',
  suggestions: 'Suggested replies',
  sources: 'Sources',
  copy: 'Copy',
  copied: 'Copied',
  table: 'Table',
  retry: 'Retry',
  notSent: 'Not sent.',
  rateLimited: 'Too many messages. Sending in {n} s…',
  offline: 'You are offline. Messages will be sent when the connection is back.',
  hideChat: 'Hide chat',
  characterCount: '{n} / {max} characters',
  tooLong: 'Too long to send. Shorten the message to {max} characters.',
  errorNetwork: 'No connection.',
  errorTimeout: 'The service took too long to answer.',
  errorServer: 'The service is having trouble.',
  errorAuth: 'Your session has expired.',
  errorSetup: 'The chat is not set up correctly on this page.',
  errorUnavailable: 'The chat service cannot be reached.',
  errorGeneric: 'Something went wrong.',
  welcome: 'Hi! How can I help you?',
  stop: 'Stop',
  stopped: 'Stopped',
  newConversation: 'New conversation',
  confirmReset: 'Clear this conversation and start over?',
  cancel: 'Cancel',
  unread: 'New replies: {n}',
  dismiss: 'Dismiss',
  goodAnswer: 'Good answer',
  badAnswer: 'Bad answer',
  feedbackReason: 'What went wrong?',
  feedbackReasons: 'Incorrect|Not helpful|Incomplete|Other',
  feedbackComment: 'Tell us more (optional)',
};

const de: WidgetStrings = {
  title: 'Chat',
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  transcript: 'Unterhaltung',
  inputLabel: 'Nachricht',
  placeholder: 'Nachricht eingeben…',
  send: 'Senden',
  you: 'Sie',
  assistant: 'Assistent',
  typing: 'Assistent schreibt…',
  suggestions: 'Antwortvorschläge',
  sources: 'Quellen',
  copy: 'Kopieren',
  copied: 'Kopiert',
  table: 'Tabelle',
  retry: 'Erneut senden',
  notSent: 'Nicht gesendet.',
  rateLimited: 'Zu viele Nachrichten. Senden in {n} s…',
  offline: 'Sie sind offline. Nachrichten werden gesendet, sobald die Verbindung zurück ist.',
  hideChat: 'Chat ausblenden',
  characterCount: '{n} / {max} Zeichen',
  tooLong: 'Zu lang zum Senden. Kürzen Sie die Nachricht auf {max} Zeichen.',
  errorNetwork: 'Keine Verbindung.',
  errorTimeout: 'Der Dienst hat nicht rechtzeitig geantwortet.',
  errorServer: 'Der Dienst hat gerade ein Problem.',
  errorAuth: 'Ihre Sitzung ist abgelaufen.',
  errorSetup: 'Der Chat ist auf dieser Seite nicht richtig eingerichtet.',
  errorUnavailable: 'Der Chat-Dienst ist nicht erreichbar.',
  errorGeneric: 'Etwas ist schiefgelaufen.',
  welcome: 'Hallo! Wie kann ich Ihnen helfen?',
  stop: 'Stopp',
  stopped: 'Angehalten',
  newConversation: 'Neue Unterhaltung',
  confirmReset: 'Diese Unterhaltung löschen und neu beginnen?',
  cancel: 'Abbrechen',
  unread: 'Neue Antworten: {n}',
  dismiss: 'Schließen',
  goodAnswer: 'Gute Antwort',
  badAnswer: 'Schlechte Antwort',
  feedbackReason: 'Was war nicht gut?',
  feedbackReasons: 'Falsch|Nicht hilfreich|Unvollständig|Anderes',
  feedbackComment: 'Mehr dazu (optional)',
};

const fr: WidgetStrings = {
  title: 'Discussion',
  openChat: 'Ouvrir la discussion',
  closeChat: 'Fermer la discussion',
  transcript: 'Conversation',
  inputLabel: 'Message',
  placeholder: 'Écrivez un message…',
  send: 'Envoyer',
  you: 'Vous',
  assistant: 'Assistant',
  typing: 'L’assistant écrit…',
  suggestions: 'Réponses suggérées',
  sources: 'Sources',
  copy: 'Copier',
  copied: 'Copié',
  table: 'Tableau',
  retry: 'Réessayer',
  notSent: 'Non envoyé.',
  rateLimited: 'Trop de messages. Envoi dans {n} s…',
  offline: 'Vous êtes hors ligne. Les messages partiront dès le retour de la connexion.',
  hideChat: 'Masquer la discussion',
  characterCount: '{n} / {max} caractères',
  tooLong: 'Trop long pour être envoyé. Réduisez le message à {max} caractères.',
  errorNetwork: 'Pas de connexion.',
  errorTimeout: 'Le service a mis trop de temps à répondre.',
  errorServer: 'Le service rencontre un problème.',
  errorAuth: 'Votre session a expiré.',
  errorSetup: 'La discussion n’est pas correctement configurée sur cette page.',
  errorUnavailable: 'Le service de discussion est injoignable.',
  errorGeneric: 'Une erreur est survenue.',
  welcome: 'Bonjour ! Comment puis-je vous aider ?',
  stop: 'Arrêter',
  stopped: 'Arrêté',
  newConversation: 'Nouvelle conversation',
  confirmReset: 'Effacer cette conversation et recommencer ?',
  cancel: 'Annuler',
  unread: 'Nouvelles réponses : {n}',
  dismiss: 'Fermer',
  goodAnswer: 'Bonne réponse',
  badAnswer: 'Mauvaise réponse',
  feedbackReason: 'Qu’est-ce qui n’allait pas ?',
  feedbackReasons: 'Incorrecte|Pas utile|Incomplète|Autre',
  feedbackComment: 'Précisez (facultatif)',
};

const es: WidgetStrings = {
  title: 'Chat',
  openChat: 'Abrir chat',
  closeChat: 'Cerrar chat',
  transcript: 'Conversación',
  inputLabel: 'Mensaje',
  placeholder: 'Escribe un mensaje…',
  send: 'Enviar',
  you: 'Tú',
  assistant: 'Asistente',
  typing: 'El asistente está escribiendo…',
  suggestions: 'Respuestas sugeridas',
  sources: 'Fuentes',
  copy: 'Copiar',
  copied: 'Copiado',
  table: 'Tabla',
  retry: 'Reintentar',
  notSent: 'No enviado.',
  rateLimited: 'Demasiados mensajes. Enviando en {n} s…',
  offline: 'Sin conexión a internet. Los mensajes se enviarán cuando vuelva la conexión.',
  hideChat: 'Ocultar el chat',
  characterCount: '{n} / {max} caracteres',
  tooLong: 'Demasiado largo para enviarlo. Acorta el mensaje a {max} caracteres.',
  errorNetwork: 'Sin conexión.',
  errorTimeout: 'El servicio tardó demasiado en responder.',
  errorServer: 'El servicio tiene problemas.',
  errorAuth: 'Tu sesión ha caducado.',
  errorSetup: 'El chat no está bien configurado en esta página.',
  errorUnavailable: 'No se puede conectar con el servicio de chat.',
  errorGeneric: 'Algo salió mal.',
  welcome: '¡Hola! ¿En qué puedo ayudarte?',
  stop: 'Detener',
  stopped: 'Detenido',
  newConversation: 'Nueva conversación',
  confirmReset: '¿Borrar esta conversación y empezar de nuevo?',
  cancel: 'Cancelar',
  unread: 'Respuestas nuevas: {n}',
  dismiss: 'Cerrar',
  goodAnswer: 'Buena respuesta',
  badAnswer: 'Mala respuesta',
  feedbackReason: '¿Qué salió mal?',
  feedbackReasons: 'Incorrecta|No es útil|Incompleta|Otro',
  feedbackComment: 'Cuéntanos más (opcional)',
};

const ar: WidgetStrings = {
  title: 'محادثة',
  openChat: 'فتح المحادثة',
  closeChat: 'إغلاق المحادثة',
  transcript: 'المحادثة',
  inputLabel: 'رسالة',
  placeholder: 'اكتب رسالة…',
  send: 'إرسال',
  you: 'أنت',
  assistant: 'المساعد',
  typing: 'المساعد يكتب…',
  suggestions: 'ردود مقترحة',
  sources: 'المصادر',
  copy: 'نسخ',
  copied: 'تم النسخ',
  table: 'جدول',
  retry: 'إعادة المحاولة',
  notSent: 'لم تُرسل.',
  rateLimited: 'رسائل كثيرة جدًا. الإرسال خلال {n} ث…',
  offline: 'أنت غير متصل. ستُرسل الرسائل عند عودة الاتصال.',
  hideChat: 'إخفاء المحادثة',
  characterCount: '{n} / {max} حرف',
  tooLong: 'الرسالة أطول من اللازم. اختصرها إلى {max} حرف.',
  errorNetwork: 'لا يوجد اتصال.',
  errorTimeout: 'استغرقت الخدمة وقتًا طويلاً للرد.',
  errorServer: 'تواجه الخدمة مشكلة.',
  errorAuth: 'انتهت صلاحية جلستك.',
  errorSetup: 'لم يتم إعداد المحادثة بشكل صحيح في هذه الصفحة.',
  errorUnavailable: 'تعذّر الوصول إلى خدمة المحادثة.',
  errorGeneric: 'حدث خطأ ما.',
  welcome: 'مرحبًا! كيف يمكنني مساعدتك؟',
  stop: 'إيقاف',
  stopped: 'تم الإيقاف',
  newConversation: 'محادثة جديدة',
  confirmReset: 'مسح هذه المحادثة والبدء من جديد؟',
  cancel: 'إلغاء',
  unread: 'ردود جديدة: {n}',
  dismiss: 'إغلاق',
  goodAnswer: 'إجابة جيدة',
  badAnswer: 'إجابة سيئة',
  feedbackReason: 'ما المشكلة؟',
  feedbackReasons: 'غير صحيحة|غير مفيدة|غير مكتملة|أخرى',
  feedbackComment: 'أخبرنا بالمزيد (اختياري)',
};

const ja: WidgetStrings = {
  title: 'チャット',
  openChat: 'チャットを開く',
  closeChat: 'チャットを閉じる',
  transcript: '会話',
  inputLabel: 'メッセージ',
  placeholder: 'メッセージを入力…',
  send: '送信',
  you: 'あなた',
  assistant: 'アシスタント',
  typing: 'アシスタントが入力中…',
  suggestions: '返信の候補',
  sources: '出典',
  copy: 'コピー',
  copied: 'コピーしました',
  table: '表',
  retry: '再送信',
  notSent: '送信されませんでした。',
  rateLimited: 'メッセージが多すぎます。{n} 秒後に送信します…',
  offline: 'オフラインです。接続が戻るとメッセージを送信します。',
  hideChat: 'チャットを隠す',
  characterCount: '{n} / {max} 文字',
  tooLong: '長すぎて送信できません。{max} 文字以内にしてください。',
  errorNetwork: '接続できません。',
  errorTimeout: 'サービスの応答に時間がかかりすぎました。',
  errorServer: 'サービスに問題が発生しています。',
  errorAuth: 'セッションの有効期限が切れました。',
  errorSetup: 'このページのチャットは正しく設定されていません。',
  errorUnavailable: 'チャットサービスに接続できません。',
  errorGeneric: 'エラーが発生しました。',
  welcome: 'こんにちは！ご用件をどうぞ。',
  stop: '停止',
  stopped: '停止しました',
  newConversation: '新しい会話',
  confirmReset: 'この会話を消去して、最初からやり直しますか？',
  cancel: 'キャンセル',
  unread: '新しい返信: {n} 件',
  dismiss: '閉じる',
  goodAnswer: '良い回答',
  badAnswer: '良くない回答',
  feedbackReason: '何が問題でしたか？',
  feedbackReasons: '不正確|役に立たない|不完全|その他',
  feedbackComment: '詳しく教えてください（任意）',
};

/**
 * The built-in locales by primary language subtag. Each table is complete (typed `WidgetStrings`,
 * not `Partial`), so a key added to the interface fails the type check until every locale has it.
 */
export const locales: Readonly<Record<'en' | 'de' | 'fr' | 'es' | 'ar' | 'ja', WidgetStrings>> = { en, de, fr, es, ar, ja };
const tables: Record<string, WidgetStrings | undefined> = locales;

/**
 * The strings for a BCP 47 language tag (`de-AT` falls back to `de`, unknown tags to `en`), with
 * `overrides` applied last.
 */
export function resolveStrings(lang: string, overrides?: Partial<WidgetStrings>): WidgetStrings {
  const primary = lang.toLowerCase().split('-')[0];
  return { ...en, ...tables[primary], ...overrides };
}
