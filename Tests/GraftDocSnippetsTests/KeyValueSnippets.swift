import Graft
import Testing

// The code of the article "Key-value injection and configuration" (KeyValueConfiguration.md),
// compiled and run.

struct ViewStyle: Sendable {
    var backgroundColor = "black"
}

struct TrackSettings: KeyValueInitializable, Sendable {
    var title = ""
    var laps = 0
    var view = ViewStyle()

    init() {}

    static let injectableKeys: InjectableKeys<TrackSettings> = [
        .required("title", \.title),
        .optional("laps", \.laps),
        .optional("view.backgroundColor", \.view.backgroundColor),
    ]
}

@Suite struct KeyValueSnippets {
    @Test func valuesReachDottedKeysAndAreCheckedByBuild() throws {
        var settings = TrackSettings()
        try settings.inject(["title": "Monza", "laps": 53, "view.backgroundColor": "red"])
        #expect(settings.view.backgroundColor == "red")

        var builder = ContainerBuilder()
        builder.register(TrackSettings.self, using: TrackSettings.init)
        builder.configure(TrackSettings.self, with: ["title": "Monza", "laps": 53])
        let container = try builder.build()
        #expect(try container.resolve(TrackSettings.self).laps == 53)

        let error = #expect(throws: GraftError.self) {
            try TrackSettings(injecting: ["title": "Monza", "laps": "fifty"])
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.description.contains("TrackSettings.laps expects Int, got String") == true)
    }
}
