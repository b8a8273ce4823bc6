import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: sign-in tokens, session ids and CSRF tokens. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** What the database keeps of a token or session id (docs/decisions/197-operator-auth.md): its SHA-256. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
