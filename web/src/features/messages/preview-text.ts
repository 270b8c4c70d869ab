/** A message's line in the chat list or a notification: its text, or the files it carries when it has none. */
export const previewText = (text: string, attachments: readonly { name: string }[] = []) =>
  text.trim() || (attachments.length ? `📎 ${attachments.map((file) => file.name).join(', ')}` : '');
