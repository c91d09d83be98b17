import { librarySearchParams, type LibraryQuery } from "@/lib/library/query";
import ui from "@/components/ui/ui.module.css";
import styles from "./library.module.css";

const hrefOf = (query: LibraryQuery, offset: number) => {
  const search = librarySearchParams({ ...query, offset }).toString();
  return search ? `/?${search}` : "/";
};

interface PageLinkProps {
  query: LibraryQuery;
  offset: number;
  enabled: boolean;
  label: string;
  children: string;
  onPage: (offset: number) => void;
}

/** A real link (it opens in a new tab as it is), followed in place by the library. */
function PageLink({ query, offset, enabled, label, children, onPage }: PageLinkProps) {
  return enabled ? (
    <a
      className={ui.button}
      data-variant="ghost"
      href={hrefOf(query, offset)}
      aria-label={label}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onPage(offset);
      }}
    >
      {children}
    </a>
  ) : (
    <span className={ui.button} data-variant="ghost" aria-label={label} aria-disabled="true">
      {children}
    </span>
  );
}

/** Links to the first, previous, next and last pages of the library (LB-2): plain links, so each page has its address. */
export function LibraryPager({ query, total, shown, onPage }: { query: LibraryQuery; total: number; shown: number; onPage: (offset: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / query.limit));
  const page = Math.min(pages, Math.floor(query.offset / query.limit) + 1);
  const hasPrevious = query.offset > 0;
  const hasNext = query.offset + shown < total;
  const lastOffset = (pages - 1) * query.limit;
  return (
    <nav className={styles.pager} aria-label="Pages of saved conversations">
      <span>
        Page {page.toLocaleString("en")} of {pages.toLocaleString("en")}
      </span>
      <span className={styles.pagerLinks}>
        <PageLink query={query} onPage={onPage} offset={0} enabled={hasPrevious} label="First page">
          «
        </PageLink>
        <PageLink query={query} onPage={onPage} offset={Math.max(0, query.offset - query.limit)} enabled={hasPrevious} label="Previous page">
          ‹ Previous
        </PageLink>
        <PageLink query={query} onPage={onPage} offset={query.offset + query.limit} enabled={hasNext} label="Next page">
          Next ›
        </PageLink>
        <PageLink query={query} onPage={onPage} offset={lastOffset} enabled={hasNext} label="Last page">
          »
        </PageLink>
      </span>
    </nav>
  );
}
