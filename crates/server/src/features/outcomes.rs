//! The features' side of [`MatchHooks`]: a decided rated match is rated by the [`Rater`], and a
//! match whose task ended opens its rematch offer in [`Rematches`]. The core calls these hooks;
//! this is the one place that connects them to the features.

use std::sync::Arc;

use bughouse_match::TimeControl;
use shvedka_proto::RatingChange;
use shvedka_storage::StoreError;

use crate::features::rater::{self, Rater, RatingRules};
use crate::features::rematch::Rematches;
use crate::service::hooks::{Decided, Finished, MatchHooks};

/// Ratings and rematches, as the core's hooks.
pub(crate) struct Outcomes {
    pub(crate) rater: Rater,
    pub(crate) ratings: RatingRules,
    pub(crate) rematches: Arc<Rematches>,
}

#[async_trait::async_trait]
impl MatchHooks for Outcomes {
    async fn rate(&self, decided: Decided<'_>) -> Result<Vec<RatingChange>, StoreError> {
        rater::rate_decided(&self.rater, decided).await
    }

    async fn rating_changes(
        &self,
        match_id: u64,
        time_control: &TimeControl,
        names: &[Option<String>; 4],
    ) -> Result<Vec<RatingChange>, StoreError> {
        let category = rater::category_of(&self.ratings.categories, time_control);
        rater::stored_changes(self.rater.store(), match_id, names, category).await
    }

    fn rates_bots(&self) -> bool {
        self.ratings.rated_bots
    }

    fn ended(&self, finished: Finished) {
        self.rematches.open(finished);
    }
}
