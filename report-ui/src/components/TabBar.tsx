/** The tabs: links to `#tab`, the current one marked. */
export interface Tab {
  id: string;
  label: string;
  count?: number | undefined;
}

export function TabBar({ tabs, current }: { tabs: readonly Tab[]; current: string | undefined }) {
  return (
    <nav class="tabs" aria-label="Sections">
      {tabs.map((t) => (
        <a
          key={t.id}
          href={`#${t.id}`}
          class={t.id === current ? 'tab current' : 'tab'}
          aria-current={t.id === current ? 'page' : undefined}
        >
          {t.label}
          {t.count !== undefined && <span class="tab-count">{t.count}</span>}
        </a>
      ))}
    </nav>
  );
}
