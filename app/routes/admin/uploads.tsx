import { data, Form, useNavigation } from 'react-router'
import type { Route } from './+types/uploads'
import { requireAdmin } from '../../auth/guards.server'
import { getConfig } from '../../config/env.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { formFailure } from '../../security/form.server'
import { receiveFiles, UploadError } from '../../uploads/intake.server'
import { redirectWithFlash } from '../../security/flash.server'
import { FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Uploads · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const uploads = await adminRepositoriesFor(admin).uploads.list()
	return { uploads: uploads.map((upload) => ({ ...upload, createdAt: upload.createdAt.toISOString() })), maxFileBytes: getConfig().uploads.maxFileBytes }
}

/**
 * The page form for uploads (no JavaScript needed): the same intake, checks and storage
 * failures as POST /api/upload, shown as a message on the form [R34].
 */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const { maxFileBytes, maxFiles } = getConfig().uploads
	try {
		const files = await receiveFiles(args.request, { maxFileBytes, maxFiles })
		const stored = await adminRepositoriesFor(admin).uploads.storeAll(files)
		throw await redirectWithFlash('/admin/uploads', `${stored.length} ${stored.length === 1 ? 'image' : 'images'} uploaded.`)
	} catch (error) {
		if (error instanceof UploadError) {
			return data(formFailure({ file: error.message }, error.message), { status: error.status, headers: error.headers })
		}
		throw error
	}
}

export default function Uploads({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	return (
		<section>
			<h1>Uploads</h1>
			<Form method="post" encType="multipart/form-data" className="card wide">
				<FormError message={actionData?.formError} />
				<div className="field">
					<label htmlFor="field-file">Images (PNG, JPEG, GIF, WebP, AVIF or SVG; up to {Math.round(loaderData.maxFileBytes / 1024 / 1024)} MB each)</label>
					<input id="field-file" type="file" name="file" accept="image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml" multiple required />
				</div>
				<button type="submit" disabled={pending}>
					{pending ? 'Uploading…' : 'Upload'}
				</button>
			</Form>
			{loaderData.uploads.length === 0 ? (
				<p className="empty-state">No uploads yet.</p>
			) : (
				<ul className="upload-grid">
					{loaderData.uploads.map((upload) => (
						<li key={upload.key}>
							<img src={`/media/${upload.key}`} alt="" loading="lazy" />
							<code>{upload.key.split('/').pop()}</code>
						</li>
					))}
				</ul>
			)}
		</section>
	)
}
