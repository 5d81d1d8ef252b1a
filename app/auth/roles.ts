import type { Role } from '../data/viewer'

/** The admin plugin stores roles comma-separated; only the exact `admin` role counts. */
export function roleOf(role: string | null | undefined): Role {
	return role?.split(',').some((r) => r.trim() === 'admin') ? 'admin' : 'user'
}
