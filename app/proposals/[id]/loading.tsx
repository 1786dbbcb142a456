import { LoadingState } from "@/components/ui/states";

export default function ProposalLoading() {
  return (
    <div className="card">
      <LoadingState label="Loading the proposal and its reviews…" />
    </div>
  );
}
