// A consumable used in a room, as its chat shows it (issue 16): the chat
// service's message of the purchase carries `consumable`; a `cover` one is a
// wide card across the message, a `small` one its picture beside the words.
import type { ChatConsumable } from '../chat/chatState';
import { FillNodes } from '../i18n/FillNodes';
import { useT } from '../i18n/i18n';
import { ConsumableIcon, hueOf } from './ConsumableIcon';
import { useConsumables } from './useTokens';
import './shop.css';

export function ConsumableInChat({ consumable, who }: { consumable: ChatConsumable; who: string }) {
  const t = useT();
  // The chat's message names the consumable; its picture is the shop's (read once, shared with the picker).
  const shop = useConsumables();
  const imageUrl = shop.data?.find((c) => c.id === consumable.id)?.imageUrl;
  const cover = consumable.displayType === 'cover';
  const hue = hueOf(consumable.id);
  return (
    <span
      className={`chat-consumable ${cover ? 'cover' : 'small'}`}
      data-consumable={consumable.id}
      data-display={consumable.displayType}
      style={cover ? { background: `linear-gradient(135deg, hsl(${hue} 60% 22%), hsl(${(hue + 60) % 360} 60% 16%))` } : undefined}
    >
      <ConsumableIcon consumable={{ id: consumable.id, imageUrl }} size={cover ? 72 : 24} />
      <span>
        <FillNodes template={t.consumableInChat} values={{ name: who, consumable: <strong>{consumable.name}</strong> }} />
      </span>
    </span>
  );
}
