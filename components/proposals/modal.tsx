"use client";

import { useEffect, useId, useRef } from "react";
import type { KeyboardEvent, ReactNode } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  title: ReactNode;
  /** Called for Esc, a click on the backdrop and the parent's own Cancel: mounting opens, unmounting closes. */
  onClose: () => void;
  children: ReactNode;
  tone?: "default" | "danger";
  testId?: string;
}

/**
 * A modal on the native <dialog>: showModal() makes the rest of the page inert (nothing behind
 * it can be clicked or focused), Esc closes it, and Tab cycles inside it. Focus goes to the
 * element marked data-autofocus (else the first control) and back to where it was on close.
 */
export function Modal({ title, onClose, children, tone = "default", testId }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>("[data-autofocus]") ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    // Esc closes natively (Chromium may skip a cancelable `cancel` event); `close` always fires.
    // A stale `close` (the dialog was closed and reopened, e.g. React's dev double mount) is ignored.
    const handleClose = () => {
      if (!dialog.open) onCloseRef.current();
    };
    dialog.addEventListener("close", handleClose);
    return () => {
      dialog.removeEventListener("close", handleClose);
      if (dialog.open) dialog.close();
      previous?.focus();
    };
  }, []);

  const trapTab = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab") return;
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={`modal modal--${tone}`}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid={testId}
      onKeyDown={trapTab}
      onClick={(event) => {
        // Only the backdrop: the content sits in .modal__body, which fills the dialog.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal__body">
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
