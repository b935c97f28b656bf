import { IconCreditCard } from '@tabler/icons-react';
import { CARD_BRANDS, type CardBrand } from '../../../domain/payments';

const WIDTH = 40;
const HEIGHT = 26;

/**
 * The mark of a card brand, drawn small and flat, so that a person sees which card a number is.
 * Any other value (no brand yet, or an unknown one) shows a plain card.
 */
export function CardBrandMark({ brand, size = 40 }: { brand: string | null; size?: number }) {
  const height = Math.round((size * HEIGHT) / WIDTH);
  const label = isCardBrand(brand) ? brand : 'Card';
  if (!isCardBrand(brand)) return <IconCreditCard size={size} aria-label={label} role="img" />;
  return (
    <svg
      width={size}
      height={height}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      data-card-brand={brand}
    >
      <title>{label}</title>
      {brand === 'Visa' && (
        <>
          <rect width={WIDTH} height={HEIGHT} rx="3" fill="#1a1f71" />
          <text
            x="20"
            y="17.5"
            textAnchor="middle"
            fill="#fff"
            fontSize="11"
            fontWeight="700"
            fontStyle="italic"
          >
            VISA
          </text>
        </>
      )}
      {brand === 'Mastercard' && (
        <>
          <rect width={WIDTH} height={HEIGHT} rx="3" fill="#231f20" />
          <circle cx="16" cy="13" r="8" fill="#eb001b" />
          <circle cx="24" cy="13" r="8" fill="#f79e1b" fillOpacity="0.9" />
        </>
      )}
      {brand === 'American Express' && (
        <>
          <rect width={WIDTH} height={HEIGHT} rx="3" fill="#006fcf" />
          <text x="20" y="17" textAnchor="middle" fill="#fff" fontSize="9" fontWeight="700">
            AMEX
          </text>
        </>
      )}
      {brand === 'Discover' && (
        <>
          <rect width={WIDTH} height={HEIGHT} rx="3" fill="#fff" stroke="#595959" />
          <text x="3" y="15.5" fill="#231f20" fontSize="6.5" fontWeight="700">
            DISC
          </text>
          <circle cx="20.5" cy="13.2" r="3" fill="#e55c20" />
          <text x="24" y="15.5" fill="#231f20" fontSize="6.5" fontWeight="700">
            VER
          </text>
        </>
      )}
    </svg>
  );
}

function isCardBrand(value: string | null): value is CardBrand {
  return (CARD_BRANDS as readonly (string | null)[]).includes(value);
}
