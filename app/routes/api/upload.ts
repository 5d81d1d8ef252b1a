import type { Route } from './+types/upload'
import { getViewer } from '../../auth/guards.server'
import { getConfig } from '../../config/env.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { isAdmin } from '../../data/viewer'
import { jsonError, jsonResponse } from '../../errors.server'
import { receiveFiles, UploadError } from '../../uploads/intake.server'

/**
 * POST /api/upload [R34]: Store Admin only, decided BEFORE a byte of the body is read; the
 * refusal closes the connection, so a large body from a non-admin is neither read nor kept.
 * Identity and Store come from the session; the body holds only files. A storage that is
 * full answers 507, one that cannot be written now 503 with Retry-After; either way nothing
 * of the request is kept.
 */
export async function action(args: Route.ActionArgs) {
	if (args.request.method !== 'POST') return refuseUnread(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' })
	const viewer = await getViewer(args)
	if (viewer.kind !== 'user') return refuseUnread(401, 'UNAUTHENTICATED', 'Sign in as a Store Admin to upload files.')
	if (!isAdmin(viewer)) return refuseUnread(403, 'FORBIDDEN', 'Only Store Admins may upload files.')
	const { maxFileBytes, maxFiles } = getConfig().uploads
	try {
		const files = await receiveFiles(args.request, { maxFileBytes, maxFiles })
		const objects = await adminRepositoriesFor(viewer).uploads.storeAll(files)
		return jsonResponse({ objects }, { status: 201, headers: { 'Cache-Control': 'no-store' } })
	} catch (error) {
		if (error instanceof UploadError) {
			return error.unread
				? refuseUnread(error.status, error.code, error.message, error.headers)
				: jsonError(error.status, error.code, error.message, error.headers)
		}
		throw error
	}
}

export function loader() {
	return jsonError(405, 'METHOD_NOT_ALLOWED', 'Use POST with multipart/form-data.', { Allow: 'POST' })
}

/** A refusal before any of the body was read: the connection closes, so the body is never read at all. */
function refuseUnread(status: number, code: string, message: string, headers: Record<string, string> = {}) {
	return jsonError(status, code, message, { Connection: 'close', ...headers })
}
