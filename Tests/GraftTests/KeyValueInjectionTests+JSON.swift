import Graft
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeyValueInjectionTests {
    /// Configuring objects from JSON text.
    @Suite struct JSON {
        @Test func jsonObjectConfiguresNestedKeys() throws {
            let json = #"""
                {
                    "title": "From file",
                    "retries": 3.0,
                    "timeout": 2,
                    "mode": "track",
                    "subtitle": null,
                    "tags": ["a", "b"],
                    "limits": {"cpu": 1, "memory": 0.5},
                    "view": {"backgroundColor": "white", "cornerRadius": 4}
                }
                """#
            let settings = try Settings(injectingJSON: json.utf8)
            #expect(
                settings
                    == Settings(
                        title: "From file",
                        retries: 3,
                        timeout: 2,
                        mode: .track,
                        subtitle: nil,
                        tags: ["a", "b"],
                        limits: ["cpu": 1, "memory": 0.5],
                        view: ViewStyle(backgroundColor: .white, cornerRadius: 4)
                    )
            )
        }

        @Test func dataFromAFileWorksToo() throws {
            let data = Data(#"{"title": "Data", "view.cornerRadius": 1.5}"#.utf8)
            var settings = Settings()
            try settings.inject(json: data)
            #expect(settings.title == "Data")
            #expect(settings.view.cornerRadius == 1.5)
        }

        @Test func classInjectsFromJSON() throws {
            let controller = ViewController()
            try controller.inject(json: #"{"title": "JSON", "view": {"backgroundColor": "white"}}"#.utf8)
            #expect(controller.title == "JSON")
            #expect(controller.view.backgroundColor == .white)
        }

        @Test func valuesReadOnceInjectIntoManyInstances() throws {
            let values = try KeyValueInjection.values(fromJSON: #"{"database": {"host": "db", "port": 6543}}"#.utf8)
            let first = try Server(injecting: values)
            var second = Server(name: "second")
            try second.inject(values)
            #expect(first.database.host == "db")
            #expect(second.database.port == 6543)
            #expect(second.name == "second")
        }

        @Test(arguments: [
            (
                #"{"title": "T", "retries": 3.5}"#,
                "Settings.retries expects Int, got Double that does not convert exactly"
            ),
            (#"{"title": "T", "verbose": 1}"#, "Settings.verbose expects Bool, got Int"),
            (#"{"title": "T", "retries": true}"#, "Settings.retries expects Int, got Bool"),
            (#"{"title": null}"#, "Settings.title expects String, got nil"),
            (#"{"title": "T", "tags": [1]}"#, "Settings.tags expects [String], got [Any]"),
            (
                #"{"title": "T", "view": {"backgroundColor": "grey"}}"#,
                "Settings.view.backgroundColor expects Color, got String that is not one of its raw values"
            ),
        ])
        func jsonValueOfTheWrongTypeIsATypeMismatch(json: String, summary: String) {
            let error = #expect(throws: GraftError.self) { try Settings(injectingJSON: json.utf8) }
            #expect(error?.code == .typeMismatch)
            #expect(error?.problems.map(\.summary) == [summary])
        }

        @Test func jsonProblemsAreAllReportedAtOnce() {
            let json = #"{"view": {"backgroundColour": "white"}, "retries": "3"}"#
            let error = #expect(throws: GraftError.self) { try Settings(injectingJSON: json.utf8) }
            #expect(
                error?.description == """
                    Graft: cannot inject Settings: 3 problems
                      1. Settings is missing required key "title" (String)
                         add "title" to the injected values
                      2. Settings.retries expects Int, got String
                         pass a value of type Int for "retries"
                      3. Settings has no injectable key "view.backgroundColour"
                         did you mean "view.backgroundColor"?
                    """
            )
        }

        @Test func invalidJSONSaysWhereItBreaks() {
            let error = #expect(throws: GraftError.self) {
                try Settings(injectingJSON: #"{"title": "T" "retries": 3}"#.utf8)
            }
            #expect(error?.code == .typeMismatch)
            #expect(
                error?.description == """
                    Graft: cannot read JSON for Settings: the given data was not valid JSON
                      check that the text is valid JSON with an object at the top level
                    """
            )
        }

        @Test(arguments: [
            ("[1, 2]", "an array"),
            ("\"text\"", "a string"),
            ("3", "a number"),
            ("null", "null"),
        ])
        func topLevelMustBeAnObject(json: String, kind: String) {
            let error = #expect(throws: GraftError.self) { try KeyValueInjection.values(fromJSON: json.utf8) }
            #expect(error?.code == .typeMismatch)
            #expect(
                error?.description == """
                    Graft: injection JSON must be an object at the top level, got \(kind)
                      put the values in an object: {"key": value, …}
                    """
            )
        }
    }
}
