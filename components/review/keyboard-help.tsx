"use client";

import { Modal } from "../proposals/modal";
import { SHORTCUTS } from "./use-queue-keys";

export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} testId="keyboard-help">
      <table className="table table--compact shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.does}>
              <th scope="row">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? <span className="muted"> or </span> : null}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">Keys do nothing while you type in a field. Approving always needs this key press or a click: nothing is applied on its own.</p>
      <div className="modal__actions">
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </Modal>
  );
}
