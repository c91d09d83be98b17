import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CODE_TARGET_INFO, CODE_TARGETS, exportPolicyCode, policyOfPreset } from "@/lib/policies";
import { DEFAULT_SETTINGS, mergeSettings } from "@/lib/settings";
import { PolicyCode } from "./policy-code";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const base = mergeSettings(DEFAULT_SETTINGS, { model: "gpt-4.1" });
const policy = policyOfPreset("observation_masking", base);

describe("PolicyCode", () => {
  it("[PO-9] shows, for each framework, its install command and a module applying the policy through that framework's adapter", () => {
    const onClose = vi.fn();
    render(<PolicyCode name="Masking" policy={policy} base={base} onClose={onClose} />);
    const framework = screen.getByRole("combobox", { name: "Framework" });
    expect(
      within(framework)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(CODE_TARGETS.map((target) => CODE_TARGET_INFO[target].label));
    for (const target of CODE_TARGETS) {
      fireEvent.change(framework, { target: { value: target } });
      const expected = exportPolicyCode("Masking", policy, target, undefined, base);
      expect(screen.getByLabelText("Install command").textContent).toBe(expected.install);
      expect(screen.getByLabelText("Code").textContent).toBe(expected.code);
      expect(expected.code).toContain(`from "@context-lab/engine/${CODE_TARGET_INFO[target].subpath}"`);
      // Resolved against the catalogue: the model's window made concrete.
      expect(expected.code).toContain('model: "gpt-4.1"');
      expect(expected.code).toContain("contextWindow: 1047576");
    }
    expect(screen.getByLabelText("Install command").textContent).toBe("npm install @context-lab/engine @anthropic-ai/sdk");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("[PO-9] copies the code and downloads it as a .ts file named after the policy and the framework", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const created = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:policy");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    render(<PolicyCode name="Masking" policy={policy} base={base} onClose={() => {}} />);
    fireEvent.change(screen.getByRole("combobox", { name: "Framework" }), { target: { value: "langchain" } });
    const expected = exportPolicyCode("Masking", policy, "langchain", undefined, base);
    fireEvent.click(screen.getByRole("button", { name: "Copy code" }));
    expect(await screen.findByRole("button", { name: "Copied" })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(expected.code);
    fireEvent.click(screen.getByRole("button", { name: "Download Masking.langchain.ts" }));
    expect(clicked).toHaveBeenCalledTimes(1);
    const blob = created.mock.calls[0][0] as Blob;
    expect(await blob.text()).toBe(expected.code);
    expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe("Masking.langchain.ts");
  });
});
