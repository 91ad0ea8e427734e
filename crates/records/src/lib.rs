//! Match records (work in progress).
