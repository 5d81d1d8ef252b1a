export { Link } from 'react-router'
