/** Worker thread of `sweep({ workers })`: runs its share of the plan, posts rows in plan order. */
import { resolveAgents } from "../agents/resolve_agents.ts";
import { JUDGES } from "../judges/judges.ts";
import { WRITERS } from "../stages/writing/writers.ts";
import { sweep } from "./sweep.ts";
import type { WorkerMessage, WorkerSweep } from "./sweep_workers.ts";

const post = (m: WorkerMessage) => self.postMessage(m);

self.onmessage = async (e: MessageEvent<WorkerSweep>) => {
  const job = e.data;
  try {
    const keys = new Set(job.keys);
    await sweep({
      ...job.options,
      agents: resolveAgents({ specs: job.agentIds }),
      judge: JUDGES.get(job.judgeId),
      writer: WRITERS.get(job.writerId),
      select: (key) => keys.has(key),
      workers: 1,
      keepRows: false,
      onRows: (rows, trajectory) => post(trajectory ? { rows, trajectory } : { rows }),
    });
    post({ done: true });
  } catch (err) {
    post({ error: (err as Error).message });
  }
};
