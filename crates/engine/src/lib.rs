//! The bot's move search (work in progress).
