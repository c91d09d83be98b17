import { describe, expect, it } from "vitest";
import { layoutBranchTree } from "./branch-layout";
import { branchPath, findDivergence, sharedLineage } from "./divergence";
import { branchNode, records } from "./test-branches";

describe("findDivergence", () => {
  it("finds the common prefix and the first differing message of each side", () => {
    const shared = records("main", 0, 17);
    const left = [...shared, ...records("main", 17, 20)];
    const right = [...shared, ...records("retry", 17, 19, (position) => `retry ${position}`)];
    const divergence = findDivergence(left, right);
    expect(divergence.commonPrefix).toBe(17);
    expect(divergence.left?.id).toBe("main:17");
    expect(divergence.right?.id).toBe("retry:17");
    expect(divergence.identical).toBe(false);
  });

  it("counts a message re-typed identically after the fork as common", () => {
    const left = records("main", 0, 6);
    const right = [...records("main", 0, 4), ...records("child", 4, 5), ...records("child", 5, 6, () => "different")];
    expect(findDivergence(left, right)).toMatchObject({ commonPrefix: 5, left: { id: "main:5" }, right: { id: "child:5" } });
  });

  it("reports the shorter side as ending where the longer goes on", () => {
    const divergence = findDivergence(records("a", 0, 3), records("a", 0, 5));
    expect(divergence).toMatchObject({ commonPrefix: 3, left: null, right: { position: 3 }, identical: false });
  });

  it("says when the histories are identical", () => {
    expect(findDivergence(records("a", 0, 4), records("a", 0, 4))).toMatchObject({ commonPrefix: 4, left: null, right: null, identical: true });
  });

  it("adds the offset of tails loaded past a shared prefix", () => {
    const divergence = findDivergence(
      records("a", 10, 12),
      records("b", 10, 12, (position) => `b ${position}`),
      10,
    );
    expect(divergence.commonPrefix).toBe(10);
    expect(divergence.left?.position).toBe(10);
  });
});

describe("sharedLineage", () => {
  const tree = [
    branchNode("main", {
      length: 40,
      children: [
        branchNode("a", { length: 30, forkPosition: 17, children: [branchNode("a1", { length: 25, forkPosition: 22 })] }),
        branchNode("b", { length: 12, forkPosition: 9 }),
      ],
    }),
  ];

  it("finds the nearest common ancestor and the prefix both inherit", () => {
    expect(sharedLineage(tree, "a", "b")).toMatchObject({ ancestor: { id: "main" }, sharedPrefix: 9 });
  });

  it("narrows through a grandchild's fork points", () => {
    expect(sharedLineage(tree, "a1", "main")).toMatchObject({ ancestor: { id: "main" }, sharedPrefix: 17 });
    expect(sharedLineage(tree, "a1", "a")).toMatchObject({ ancestor: { id: "a" }, sharedPrefix: 22 });
  });

  it("gives a branch compared with itself its whole length", () => {
    expect(sharedLineage(tree, "b", "b")).toMatchObject({ ancestor: { id: "b" }, sharedPrefix: 12 });
  });

  it("is null for a branch the tree does not hold", () => {
    expect(sharedLineage(tree, "a", "nope")).toBeNull();
    expect(branchPath(tree, "a1").map((branch) => branch.id)).toEqual(["main", "a", "a1"]);
  });
});

describe("layoutBranchTree", () => {
  it("gives each branch its own row, parents above children, children by fork point", () => {
    const tree = [
      branchNode("main", {
        length: 40,
        children: [
          branchNode("late", { length: 35, forkPosition: 30 }),
          branchNode("early", { length: 12, forkPosition: 9, children: [branchNode("deep", { length: 11, forkPosition: 10 })] }),
        ],
      }),
    ];
    const layout = layoutBranchTree(tree, { rowHeight: 40, indent: 20 });
    expect(layout.rows.map((row) => [row.branch.id, row.depth, row.parentRow])).toEqual([
      ["main", 0, null],
      ["early", 1, 0],
      ["deep", 2, 1],
      ["late", 1, 0],
    ]);
    expect(layout.rows.map((row) => row.ownMessages)).toEqual([40, 3, 1, 5]);
    expect(layout.rows[2]).toMatchObject({ x: 50, y: 100 });
    expect(layout.links.find((link) => link.childId === "late")?.path).toBe("M10,20 V140 H30");
    expect(layout).toMatchObject({ width: 60, height: 160 });
  });

  it("lays out nothing for an empty tree", () => {
    expect(layoutBranchTree([])).toEqual({ rows: [], links: [], width: 18, height: 0 });
  });
});
