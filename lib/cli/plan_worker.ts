/** A worker of `deno task plan`: plans the dataset it is sent and posts the plan back. */
import { type DatasetPlanTask, planDataset } from "./plan_dataset.ts";

const self = globalThis as unknown as {
  onmessage: (e: MessageEvent<DatasetPlanTask>) => void;
  postMessage: (m: unknown) => void;
};

self.onmessage = async (e) => {
  try {
    self.postMessage({ plan: await planDataset(e.data) });
  } catch (error) {
    self.postMessage({ error: (error as Error)?.message ?? String(error) });
  }
};
