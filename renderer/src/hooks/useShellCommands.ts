import { useEffect, useRef } from 'react';
import type { ShellCommand } from '../../../protocol/views';
import { bridge } from '../bridge';

type Handlers = { [K in ShellCommand['kind']]: (command: Extract<ShellCommand, { kind: K }>) => void };

/** What the menus, the dock and a second launch ask of the window. */
export function useShellCommands(handlers: Handlers): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(
    () =>
      bridge().onCommand((command) => {
        const handle = current.current[command.kind] as (command: ShellCommand) => void;
        handle(command);
      }),
    [],
  );
}
