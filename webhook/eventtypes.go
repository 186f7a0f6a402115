package webhook

// EventTypes returns the event types the service documents, each a
// constant of this package whose data Parse decodes into its own struct:
// translation events first, then content events, in the order of the
// constants. The slice is new at each call.
func EventTypes() []EventType {
	return []EventType{
		EventTranslationsPublished, EventTranslationsUpdated,
		EventKeysCreated, EventKeysDeleted, EventSyncCompleted,
		EventLanguageAdded, EventLanguageRemoved,
		EventEntryCreated, EventEntryUpdated, EventEntryPublished, EventEntryUnpublished, EventEntryDeleted,
		EventEntriesBulkPublished, EventEntriesBulkUpdated, EventEntriesBulkDeleted,
		EventModelCreated, EventModelUpdated, EventModelDeleted,
		EventFieldAdded, EventFieldUpdated, EventFieldDeleted,
	}
}
