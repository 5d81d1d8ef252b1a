import type { Config } from '@react-router/dev/config'

/** Issue 11: the bare framework the store is measured against (scripts/bench/budget.ts). */
export default { ssr: true } satisfies Config
