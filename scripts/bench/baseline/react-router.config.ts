import type { Config } from '@react-router/dev/config'

/** the bare framework the store is measured against (scripts/bench/budget.ts). */
export default { ssr: true } satisfies Config
