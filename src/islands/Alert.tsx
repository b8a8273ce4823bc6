import type { ReactNode } from 'react';

interface Props {
  kind?: 'error' | 'info' | 'success';
  children: ReactNode;
}

/** An inline alert message; errors are announced at once (role alert), others politely (role status). */
export function Alert({ kind = 'info', children }: Props) {
  return (
    <div className={`alert alert--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export default Alert;
