import { Form, useNavigation } from 'react-router'
import { FormError } from './forms'
import { MoveButtons, RowButton } from './move-buttons'

type Image = { key: string; width: number | null; height: number | null }

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml'

/**
 * The images of a product in Store Admin: upload several (a plain multipart form, so it works
 * without JavaScript; with it the page stays put), see them, move them, take them off, or add
 * one uploaded earlier. The first is the main image on cards and in carts.
 */
export function ProductGalleryEditor({
	title,
	images,
	uploads,
	max,
	maxFileBytes,
	error,
}: {
	title: string
	images: readonly Image[]
	uploads: ReadonlyArray<{ key: string }>
	max: number
	maxFileBytes: number
	error?: string
}) {
	const navigation = useNavigation()
	const uploading = navigation.state === 'submitting' && navigation.formAction?.includes('intent=upload-images')
	const full = images.length >= max
	return (
		<div className="card wide" id="images">
			<h2>Images</h2>
			<FormError message={error} />
			{images.length === 0 ? (
				<p data-testid="gallery-empty">No images yet: shoppers see the first letter of the title.</p>
			) : (
				<ol className="gallery-editor">
					{images.map((image, index) => (
						<li key={image.key} data-testid="gallery-image">
							<img src={`/media/${image.key}`} alt={`${title}, image ${index + 1}`} width={image.width ?? undefined} height={image.height ?? undefined} />
							<span className="hint">{index === 0 ? 'Main image' : `Image ${index + 1}`}</span>
							<div className="row-actions">
								<MoveButtons
									intent="move-image"
									fields={{ key: image.key }}
									first={index === 0}
									last={index === images.length - 1}
									title={`image ${index + 1}`}
								/>
								<RowButton intent="remove-image" fields={{ key: image.key }} label={`Remove image ${index + 1}`}>
									Remove
								</RowButton>
							</div>
						</li>
					))}
				</ol>
			)}
			{full ? (
				<p className="hint">A product has at most {max} images: remove one to add another.</p>
			) : (
				<>
					<Form method="post" action="?intent=upload-images" encType="multipart/form-data" className="inline-form">
						<label htmlFor="gallery-files">Upload images (PNG, JPEG, GIF, WebP, AVIF or SVG; up to {Math.round(maxFileBytes / 1024 / 1024)} MB each)</label>
						<input id="gallery-files" type="file" name="file" accept={ACCEPT} multiple required />
						<button type="submit" disabled={uploading}>
							{uploading ? 'Uploading…' : 'Upload'}
						</button>
					</Form>
					{uploads.length > 0 ? (
						<Form method="post" action="?intent=add-image" className="inline-form">
							<label htmlFor="gallery-existing">Or add an image uploaded before</label>
							<select id="gallery-existing" name="key" required>
								{uploads.map((upload) => (
									<option key={upload.key} value={upload.key}>
										{upload.key.split('/').pop()}
									</option>
								))}
							</select>
							<button type="submit" className="secondary">
								Add
							</button>
						</Form>
					) : null}
				</>
			)}
		</div>
	)
}
