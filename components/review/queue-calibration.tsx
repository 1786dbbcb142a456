"use client";

import { useState } from "react";
import type { Actor } from "@/lib/auth/permissions";
import { CalibrationPanel } from "./calibration-panel";

/**
 * Below the queue: per graph, how people decided on each kind and label, the thresholds in use
 * and the re-fit an admin can apply. Loaded when opened, so the queue itself stays one request.
 */
export function QueueCalibration({ graphs, viewer }: { graphs: string[]; viewer: Actor | null }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <details id="calibration" className="card calibration-details" onToggle={(e) => setIsOpen(e.currentTarget.open)} data-testid="queue-calibration">
      <summary>
        <strong>Decisions and thresholds</strong>
        <span className="muted small"> · how often reviewers approved, rejected or reverted each label, per graph; admins re-fit the score thresholds here</span>
      </summary>
      {isOpen ? (
        <div className="calibration-details__body">
          {graphs.map((g) => (
            <div key={g} className="calibration-details__graph">
              <h3 className="section-title">{g}</h3>
              <CalibrationPanel graph={g} viewer={viewer} />
            </div>
          ))}
        </div>
      ) : null}
    </details>
  );
}
