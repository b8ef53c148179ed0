/** Brand marks for the footer's social links (drawn here: the icon set has no brand logos). */
interface IconProps {
  size?: number;
}

function Svg({ size = 20, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
      {children}
    </svg>
  );
}

export function InstagramIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.5" cy="6.5" r="1" fill="currentColor" stroke="none" />
    </Svg>
  );
}

export function TwitterIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M4 4l16 16M20 4L4 20" strokeLinecap="round" />
    </Svg>
  );
}

export function FacebookIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path
        d="M14.5 21v-7.5h2.5l.5-3h-3V8.7c0-.9.3-1.5 1.6-1.5h1.5V4.5c-.3 0-1.2-.1-2.2-.1-2.2 0-3.8 1.3-3.8 3.8v2.3H9v3h2.6V21"
        strokeLinejoin="round"
      />
    </Svg>
  );
}

export function WhatsAppIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M4 20l1.3-3.9A8 8 0 1 1 8.2 19z" strokeLinejoin="round" />
      <path
        d="M9.3 8.6c.2-.4.6-.4.9-.3l.7 1.5c.1.3 0 .5-.2.7l-.4.4c.5 1 1.4 1.9 2.5 2.5l.4-.4c.2-.2.5-.3.7-.2l1.5.7c.2.1.3.6-.1 1-.6.6-1.6.8-2.8.2a8 8 0 0 1-3.5-3.5c-.5-1.1-.3-2.1.3-2.6z"
        fill="currentColor"
        stroke="none"
      />
    </Svg>
  );
}

export function TelegramIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M21 4L3 11l6 2 2 6 3-4 5 4z" strokeLinejoin="round" />
      <path d="M9 13l12-9" />
    </Svg>
  );
}
