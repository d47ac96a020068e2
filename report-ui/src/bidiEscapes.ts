/**
 * Every text the viewer renders passes showBidi (model/bidi.ts): installed once as Preact's vnode
 * hook, it rewrites each text node and each `title` as it is created, so no component can forget
 * it and no id, file name, message or trace text reaches the page with a raw bidi control. The
 * data itself (ids in links, the embedded JSON) is left as it is.
 */
import { options, type VNode } from 'preact';
import { showBidi } from './model/bidi.js';

export function installBidiEscapes(): void {
  const previous = options.vnode;
  options.vnode = (vnode: VNode) => {
    const v = vnode as unknown as { props: unknown };
    // A text node's props are its text.
    if (typeof v.props === 'string') v.props = showBidi(v.props);
    else if (v.props && typeof v.props === 'object') {
      const props = v.props as Record<string, unknown>;
      if (typeof props.title === 'string') props.title = showBidi(props.title);
    }
    previous?.(vnode);
  };
}
