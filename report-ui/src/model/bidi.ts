/**
 * Bidi controls shown, not obeyed: an embedding, override or isolate (U+202A–202E, U+2066–2069) or
 * a direction mark (U+200E, U+200F) in a trace id, a file name or any text makes the characters
 * around it read in another order, so `invoice‮fdp.exe` can pass for `invoiceexe.pdf`. The viewer
 * writes each as a visible escape, `\u{202e}`, as the terminal and the markdown report do
 * (src/redact/safeText.ts). Pure; the page applies it to every text it shows (bidiEscapes.ts).
 */
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function showBidi(text: string): string {
  return text.replace(BIDI, (ch) => `\\u{${ch.charCodeAt(0).toString(16)}}`);
}
