import { LoadingState } from "@/components/ui/states";

export default function ReviewLoading() {
  return (
    <div className="card">
      <LoadingState label="Loading the review queue…" />
    </div>
  );
}
