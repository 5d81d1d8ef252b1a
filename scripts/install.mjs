/**
 * `npm run setup`'s install step, and CI's: installs the dependencies on the Node the project
 * runs on (package.json `engines`), also on a machine whose own Node is older
 * (docs/decisions/076-node-24-runtime.md).
 *
 * The runtime is an ordinary dependency: `node-<platform>-<arch>` (the Node.js release as an npm
 * package, binary and headers), an optional dependency so npm installs only the one for this
 * machine, and npm scripts run it because npm puts node_modules/.bin first on their PATH. This
 * script makes the install itself run on that Node too:
 * - when the Node running it is older than `engines` names, the pinned release is first
 *   installed into .runtime/ (npm's cache keeps the download for the real install), and npm's
 *   own CLI is run on it: no package is installed by a Node it does not support;
 * - native addons (better-sqlite3) compile against the headers of the Node that will load them,
 *   the package in node_modules, whatever `nodedir` the machine's npm config names.
 * Plain JavaScript that runs on any Node from 18 on: it runs before anything is installed.
 *
 * Usage: node scripts/install.mjs [ci|install]   (default: install)
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const command = process.argv[2] ?? 'install'
if (!['ci', 'install'].includes(command)) {
	console.error('Usage: node scripts/install.mjs [ci|install]')
	process.exit(2)
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const required = Number(/(\d+)/.exec(pkg.engines.node)?.[1])
const major = (version) => Number(version.replace(/^v/, '').split('.')[0])
const runtimePackage = `node-${process.platform}-${process.arch}`
const pinned = pkg.optionalDependencies?.[runtimePackage]

function run(file, args, env = process.env) {
	const result = spawnSync(file, args, { cwd: root, stdio: 'inherit', env })
	if (result.error) throw result.error
	return result.status ?? 1
}

/** npm's own CLI script: the one running this script (npm run), else the `npm` on the PATH. */
function npmCli() {
	if (process.env.npm_execpath && process.env.npm_execpath.endsWith('.js')) return process.env.npm_execpath
	for (const dir of (process.env.PATH ?? '').split(delimiter)) {
		const bin = join(dir, 'npm')
		if (!existsSync(bin)) continue
		const cli = join(dirname(realpathSync(bin)), 'npm-cli.js')
		if (existsSync(cli)) return cli
	}
	throw new Error('npm was not found on the PATH')
}

/** The Node that runs npm: this one when it is recent enough, else the pinned release in .runtime/. */
function nodeForNpm() {
	if (major(process.version) >= required) return process.execPath
	if (!pinned) {
		console.error(
			`[install] This project runs on Node ${required} or newer; this machine has ${process.version}, and no Node ${required} ` +
				`package is pinned for ${process.platform}-${process.arch}. Install Node ${required} (https://nodejs.org) and run the command again.`,
		)
		process.exit(1)
	}
	const node = join(root, '.runtime', 'node_modules', runtimePackage, 'bin', 'node')
	if (!existsSync(node)) {
		console.log(`[install] Node ${process.version} is older than this project's Node ${required}: fetching ${runtimePackage}@${pinned} to install with`)
		const status = run(process.execPath, [
			npmCli(),
			'install',
			'--prefix',
			join(root, '.runtime'),
			'--no-save',
			'--no-package-lock',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			`${runtimePackage}@${pinned}`,
		])
		if (status !== 0) process.exit(status)
	}
	return node
}

const node = nodeForNpm()
const env = { ...process.env, PATH: [dirname(node), process.env.PATH].join(delimiter) }
// The headers native addons build against: those of the Node that will load them. The pinned
// package's are unpacked before any install script runs; on a platform without one, the running
// Node's own (when its installation has them: otherwise npm's config decides).
const headers = pinned ? join(root, 'node_modules', runtimePackage) : dirname(dirname(process.execPath))
if (pinned || existsSync(join(headers, 'include', 'node'))) env.npm_config_nodedir = headers
const status = run(node, [npmCli(), command, '--no-audit', '--no-fund'], env)
// The bootstrap copy served its turn: node_modules holds the same release now.
if (status === 0 && pinned && existsSync(join(root, 'node_modules', runtimePackage))) rmSync(join(root, '.runtime'), { recursive: true, force: true })
process.exit(status)
