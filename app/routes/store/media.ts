import type { Route } from './+types/media'
import { getViewer, requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor, repositoriesFor } from '../../repositories.server'
import { jsonError } from '../../errors.server'
import { UploadError } from '../../uploads/intake.server'
import { OBJECT_KEY } from '../../uploads/storage/storage'
import { isResizable, rendition } from '../../uploads/renditions.server'
import { RENDITION_WIDTHS } from '../../ui/image-sources'

const bufferOf = async (body: ReadableStream<Uint8Array>) => Buffer.from(await new Response(body).arrayBuffer())

const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } })

/**
 * GET /media/<key> [R33]: the key names the object, the session decides.
 * Another Store's key, a guessed key, an encoded `../` or an object nobody may see yet: 404.
 * Served with the type decided at upload, a sandboxing CSP (SVG can script), and the
 * nosniff that every response carries (app/security/http.server.ts).
 */
export async function loader(args: Route.LoaderArgs) {
	const key = args.params['*'] ?? ''
	if (!OBJECT_KEY.test(key)) return notFound()
	// `?w=` asks for a smaller copy (srcset), at one of the widths the store makes; any other is 400.
	const asked = new URL(args.request.url).searchParams.get('w')
	const width = asked === null ? null : RENDITION_WIDTHS.find((w) => String(w) === asked)
	if (width === undefined) return new Response('Unknown width', { status: 400, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } })
	const viewer = await getViewer(args)
	const object = await repositoriesFor(viewer).uploads.openReadable(key)
	if (!object) return notFound()
	const copy = width !== null && isResizable(object.contentType) ? await rendition(key, width, () => bufferOf(object.body)) : null
	// A copy kept from earlier leaves the original unread: let the storage close it.
	if (copy && !object.body.locked) object.body.cancel().catch(() => undefined)
	return new Response(copy ? (copy as Uint8Array<ArrayBuffer>) : object.body, {
		headers: {
			'Content-Type': copy ? 'image/webp' : object.contentType,
			'Content-Length': String(copy ? copy.byteLength : object.size),
			'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
			'Content-Disposition': 'inline',
			'Cross-Origin-Resource-Policy': 'same-origin',
			'Cache-Control': object.public ? 'public, max-age=300' : 'private, no-store',
		},
	})
}

/** DELETE /media/<key>: a Store Admin removes an object of their own Store (audited). */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	if (args.request.method !== 'DELETE') return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, DELETE' } })
	const key = args.params['*'] ?? ''
	if (!OBJECT_KEY.test(key)) return notFound()
	try {
		const removed = await adminRepositoriesFor(admin).uploads.delete(key)
		return removed ? new Response(null, { status: 204 }) : notFound()
	} catch (error) {
		// The storage could not be changed: 503 or 507 in the one error shape, nothing removed [R34].
		if (error instanceof UploadError) return jsonError(error.status, error.code, error.message, error.headers)
		throw error
	}
}
