/**
 * GET /healthz [R81]: liveness, that the process answers requests at all. It asks no dependency:
 * a database outage is not cured by restarting the store. /readyz says whether to send it shoppers.
 */
export function loader() {
	return new Response('ok', { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
}
