-- What the widget tells about the visitor with each turn (conversations/visitor.ts): the page, the
-- referrer, locale, time zone, and the traits the site gave to `identify()`. The latest turn's
-- context wins; `first_page_url` keeps the page the conversation started on. Null: nothing told.
alter table conversations add column visitor jsonb;
