"use client";

import ui from "@/components/ui/ui.module.css";
import { ImportReport } from "./import-report";
import { useImportAndOpen } from "./use-import";

export const EXAMPLE_PATH = "/examples/tau-bench-airline-task-2.json";

/** Imports the bundled tau-bench trajectory and opens it. */
export function ExampleButton({ variant = "primary" }: { variant?: "primary" | "plain" }) {
  const importer = useImportAndOpen();
  const load = async () => {
    const response = await fetch(EXAMPLE_PATH);
    await importer.importText(await response.text(), "tau-bench-airline-task-2.json");
  };
  return (
    <>
      <button
        type="button"
        className={ui.button}
        data-variant={variant === "primary" ? "primary" : undefined}
        disabled={importer.busy}
        onClick={() => void load()}
      >
        {importer.busy ? "Loading the example…" : "Load an example"}
      </button>
      {importer.failure ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          {importer.failure.message}
        </p>
      ) : null}
      {importer.report ? <ImportReport {...importer.report} /> : null}
    </>
  );
}
