/** Help menu targets (spec/account.md "Menu bar"); the hosts are placeholders on dive.example. */
export const HELP_LINKS = [
  { label: 'Knowledge Base', href: 'https://docs.dive.example/knowledge-base' },
  { label: 'Python Documentation', href: 'https://docs.dive.example/python' },
  { label: 'Ticket Portal', href: 'https://support.dive.example/tickets' },
  { label: 'Book Feedback Session', href: 'https://dive.example/feedback-session' },
  { label: 'Submit Ticket', href: 'https://support.dive.example/tickets/new' },
] as const

export const SUPPORT_EMAIL = 'support@dive.example'
