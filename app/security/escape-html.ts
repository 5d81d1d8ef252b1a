/** Text made safe to put inside HTML (element content or a quoted attribute) [R41]. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
