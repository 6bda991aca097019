/* Attention Explorer: a throwaway Python that makes the memory snapshot (see snapshot.js).
   Started inside the engine's worker by snapshot.js (makeSnapshot), once the page says the
   student has paused; it answers {} when stored, {error} otherwise. */
import { makeAndStore } from "./snapshot.js";

self.onmessage = async (event) => {
  try {
    await makeAndStore(event.data);
    self.postMessage({});
  } catch (error) {
    self.postMessage({ error: String(error && error.message || error) });
  }
};
