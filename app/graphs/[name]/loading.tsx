import { LoadingState } from "@/components/ui/states";

export default function GraphLoading() {
  return <LoadingState label="Loading the graph…" />;
}
