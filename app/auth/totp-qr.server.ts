import QRCode from 'qrcode'

/**
 * The otpauth:// address as a QR code for an authenticator app's camera: an SVG drawn on the
 * server, sent as a data: URL in an <img> (the CSP allows data: images, no inline script or
 * style is needed). Made in the response that shows the secret, never stored.
 */
export async function totpQrDataUrl(totpURI: string): Promise<string> {
	const svg = await QRCode.toString(totpURI, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
	return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`
}
