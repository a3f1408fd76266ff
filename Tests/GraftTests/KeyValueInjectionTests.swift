import Graft
import Testing

@Suite struct KeyValueInjectionTests {
    // MARK: Setting values

    @Test func injectSetsValuesByKeyAndDottedKeyPath() throws {
        var settings = Settings()
        try settings.inject(["title": "Test", "view.backgroundColor": Color.white, "retries": 3])
        #expect(settings.title == "Test")
        #expect(settings.view.backgroundColor == .white)
        #expect(settings.retries == 3)
        #expect(settings.timeout == 1.5)
    }

    @Test func initInjectingCreatesAConfiguredValue() throws {
        let settings = try Settings(injecting: ["title": "Test", "verbose": true])
        #expect(settings == Settings(title: "Test", verbose: true))
    }

    @Test func classInjectionWorksOnALetConstant() throws {
        let controller = ViewController()
        try controller.inject(["title": "Test", "view.backgroundColor": Color.white, "engine": V12Engine()])
        #expect(controller.title == "Test")
        #expect(controller.view.backgroundColor == .white)
        #expect(controller.engine.name == "V12")
    }

    @Test func classInitInjectingCreatesAConfiguredObject() throws {
        let controller = try ViewController(injecting: ["title": "Test"])
        #expect(controller.title == "Test")
        #expect(controller.view.backgroundColor == .black)
    }

    @Test func nestedDictionaryReachesNestedKeys() throws {
        var settings = Settings()
        try settings.inject([
            "title": "Test", "view": ["backgroundColor": Color.white, "cornerRadius": 4.0] as [String: any Sendable],
        ])
        #expect(settings.view == ViewStyle(backgroundColor: .white, cornerRadius: 4))
    }

    @Test func activationHookShapeWorksForStructsAndClasses() throws {
        var settings = Settings()
        try Self.activate(&settings, with: ["title": "Hooked"])
        var controller = ViewController()
        try Self.activate(&controller, with: ["title": "Hooked"])
        #expect(settings.title == "Hooked")
        #expect(controller.title == "Hooked")
    }

    @Test func keysDeclaredOutsideTheTypeInjectIntoIt() throws {
        let keys: InjectableKeys<Label> = [
            .required("text", \.text),
            .nested("style", \.style, keys: [.optional("radius", \ViewStyle.cornerRadius)]),
        ]
        var label = Label()
        try keys.inject(["text": "Hello", "style.radius": 2], into: &label)
        #expect(label.text == "Hello")
        #expect(label.style.cornerRadius == 2)
    }

    @Test func keysInjectIntoAnObjectWithoutInout() throws {
        let controller = ViewController()
        try ViewController.injectableKeys.validate(["title": "Test"])
        try ViewController.injectableKeys.inject(
            ["title": "Test", "view.backgroundColor": Color.white],
            into: controller
        )
        #expect(controller.title == "Test")
        #expect(controller.view.backgroundColor == .white)
    }

    @Test func namesListEveryKeyAndRequiredNamesTheRequiredOnes() {
        #expect(Server.injectableKeys.names == ["name", "database.host", "database.port", "proxy.host", "proxy.port"])
        #expect(Server.injectableKeys.requiredNames == ["database.host"])
        #expect(ViewController.injectableKeys.requiredNames == ["title"])
    }

    // MARK: Any value type

    struct ValueCase: Sendable, CustomTestStringConvertible {
        let key: String
        let value: any Sendable
        let check: @Sendable (Settings) -> Bool
        var testDescription: String { "\(key) = \(value)" }
    }

    @Test(arguments: [
        ValueCase(key: "retries", value: 7) { $0.retries == 7 },
        ValueCase(key: "verbose", value: true) { $0.verbose },
        ValueCase(key: "timeout", value: 2.25) { $0.timeout == 2.25 },
        ValueCase(key: "mode", value: Mode.track) { $0.mode == .track },
        ValueCase(key: "view", value: ["cornerRadius": 3.0] as [String: any Sendable]) { $0.view.cornerRadius == 3 },
        ValueCase(key: "subtitle", value: "sub") { $0.subtitle == "sub" },
        ValueCase(key: "subtitle", value: String?.none) { $0.subtitle == nil },
        ValueCase(key: "tags", value: ["a", "b"]) { $0.tags == ["a", "b"] },
        ValueCase(key: "limits", value: ["cpu": 0.5]) { $0.limits == ["cpu": 0.5] },
    ])
    func injectAcceptsAnyValueType(_ valueCase: ValueCase) throws {
        var settings = Settings()
        try settings.inject(["title": "Test", valueCase.key: valueCase.value])
        #expect(valueCase.check(settings))
    }

    @Test(arguments: [
        ValueCase(key: "retries", value: 3.0) { $0.retries == 3 },
        ValueCase(key: "timeout", value: 2) { $0.timeout == 2 },
        ValueCase(key: "ratio", value: 0.1) { $0.ratio == Float(0.1) },
        ValueCase(key: "wheels", value: 6) { $0.wheels == 6 },
        ValueCase(key: "mode", value: "track") { $0.mode == .track },
        ValueCase(key: "subtitle", value: Int?.none) { $0.subtitle == nil },
        ValueCase(key: "limits", value: ["cpu": 2] as [String: any Sendable]) { $0.limits == ["cpu": 2] },
        ValueCase(key: "tags", value: ["a"] as [any Sendable]) { $0.tags == ["a"] },
    ])
    func injectConvertsWhenExact(_ valueCase: ValueCase) throws {
        var settings = Settings()
        try settings.inject(["title": "Test", valueCase.key: valueCase.value])
        #expect(valueCase.check(settings))
    }

    @Test func validateChecksWithoutSetting() throws {
        try Settings.validate(["title": "Test"])
        let error = #expect(throws: GraftError.self) { try Settings.validate([:]) }
        #expect(error?.code == .missingKey)
    }

    // MARK: Errors

    @Test func missingRequiredKeyIsReportedByName() {
        var settings = Settings()
        let error = #expect(throws: GraftError.self) { try settings.inject(["retries": 3]) }
        #expect(error?.code == .missingKey)
        #expect(error?.problems.map(\.code) == [.missingKey])
        #expect(
            error?.description == """
                Graft: cannot inject Settings: 1 problem
                  1. Settings is missing required key "title" (String)
                     add "title" to the injected values
                """
        )
    }

    @Test(arguments: [
        ("retires", #"did you mean "retries"?"#),
        ("Title", #"did you mean "title"?"#),
        ("backgroundColor", #"did you mean "view.backgroundColor"?"#),
        ("view.backgroundColour", #"did you mean "view.backgroundColor"?"#),
        ("veiw.cornerRadius", #"did you mean "view.cornerRadius"?"#),
    ])
    func unknownKeySuggestsTheNearestDeclaredKey(key: String, hint: String) {
        var settings = Settings()
        let error = #expect(throws: GraftError.self) { try settings.inject(["title": "Test", key: 1]) }
        #expect(error?.code == .unknownKey)
        #expect(error?.problems.first?.summary == "Settings has no injectable key \"\(key)\"")
        #expect(error?.problems.first?.hints == [hint])
    }

    @Test func unknownKeyWithNothingCloseListsTheDeclaredKeys() {
        let controller = ViewController()
        let error = #expect(throws: GraftError.self) { try controller.inject(["title": "Test", "zoom": 2]) }
        #expect(
            error?.description == """
                Graft: cannot inject ViewController: 1 problem
                  1. ViewController has no injectable key "zoom"
                     injectable keys: "title", "engine", "view.backgroundColor"
                """
        )
    }

    @Test func unknownKeyForATypeWithoutKeysSaysHowToDeclareThem() {
        let error = #expect(throws: GraftError.self) { try Empty(injecting: ["name": "x"]) }
        #expect(error?.problems.first?.hints == ["Empty declares no injectable keys; list them in its injectableKeys"])
    }

    @Test(arguments: [
        (
            "retries", "3" as any Sendable, "Settings.retries expects Int, got String",
            #"pass a value of type Int for "retries""#
        ),
        ("verbose", 1, "Settings.verbose expects Bool, got Int", #"pass a value of type Bool for "verbose""#),
        ("title", String?.none, "Settings.title expects String, got nil", #"pass a value of type String for "title""#),
        ("subtitle", 5, "Settings.subtitle expects String?, got Int", #"pass a value of type String? for "subtitle""#),
        ("tags", [1, 2], "Settings.tags expects [String], got [Int]", #"pass a value of type [String] for "tags""#),
        (
            "view.backgroundColor", 0, "Settings.view.backgroundColor expects Color, got Int",
            #"pass a value of type Color for "view.backgroundColor""#
        ),
    ])
    func wrongValueTypeIsATypeMismatch(key: String, value: any Sendable, summary: String, hint: String) {
        var settings = Settings()
        let values: [String: any Sendable] = key == "title" ? [key: value] : ["title": "Test", key: value]
        let error = #expect(throws: GraftError.self) { try settings.inject(values) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.problems.first?.summary == summary)
        #expect(error?.problems.first?.hints == [hint])
    }

    @Test(arguments: [
        (
            "retries", 3.5 as any Sendable, "Settings.retries expects Int, got Double that does not convert exactly",
            "Int"
        ),
        ("wheels", 300, "Settings.wheels expects UInt8, got Int that does not convert exactly", "UInt8"),
        ("wheels", -1, "Settings.wheels expects UInt8, got Int that does not convert exactly", "UInt8"),
        ("timeout", Int.max, "Settings.timeout expects Double, got Int that does not convert exactly", "Double"),
    ])
    func inexactNumberIsATypeMismatch(key: String, value: any Sendable, summary: String, type: String) {
        var settings = Settings()
        let error = #expect(throws: GraftError.self) { try settings.inject(["title": "Test", key: value]) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.problems.first?.summary == summary)
        #expect(error?.problems.first?.hints == ["pass a number that \(type) holds exactly for \"\(key)\""])
    }

    @Test func unknownRawValueListsTheValidOnes() {
        var settings = Settings()
        let error = #expect(throws: GraftError.self) {
            try settings.inject(["title": "Test", "mode": "rally", "view.backgroundColor": "grey"])
        }
        #expect(
            error?.description == """
                Graft: cannot inject Settings: 2 problems
                  1. Settings.mode expects Mode, got String that is not one of its raw values
                     pass a Mode or one of its raw values for "mode"
                  2. Settings.view.backgroundColor expects Color, got String that is not one of its raw values
                     valid values: "white", "black"
                """
        )
    }

    @Test func everyProblemIsReportedAtOnce() {
        var settings = Settings()
        let error = #expect(throws: GraftError.self) {
            try settings.inject(["retires": 3, "timeout": "long", "view.backgroundColor": Color.white])
        }
        #expect(error?.code == .missingKey)
        #expect(error?.problems.map(\.code) == [.missingKey, .unknownKey, .typeMismatch])
        #expect(
            error?.description == """
                Graft: cannot inject Settings: 3 problems
                  1. Settings is missing required key "title" (String)
                     add "title" to the injected values
                  2. Settings has no injectable key "retires"
                     did you mean "retries"?
                  3. Settings.timeout expects Double, got String
                     pass a value of type Double for "timeout"
                """
        )
    }

    @Test func nothingIsSetWhenAnyValueIsWrong() {
        var settings = Settings()
        let settingsError = #expect(throws: GraftError.self) {
            try settings.inject(["title": "Changed", "retries": 3, "view.cornerRadius": 9.0, "verbose": "yes"])
        }
        #expect(
            settingsError?.description == """
                Graft: cannot inject Settings: 1 problem
                  1. Settings.verbose expects Bool, got String
                     pass a value of type Bool for "verbose"
                """
        )
        #expect(settings == Settings())

        let controller = ViewController()
        let controllerError = #expect(throws: GraftError.self) {
            try controller.inject(["title": "Changed", "view.backgroundColor": Color.white, "engine": "V12"])
        }
        #expect(
            controllerError?.description == """
                Graft: cannot inject ViewController: 1 problem
                  1. ViewController.engine expects Engine, got String
                     pass a value of type Engine for "engine"
                """
        )
        #expect(controller.title == "")
        #expect(controller.view.backgroundColor == .black)
    }

    @Test func requiredNestedKeyIsReportedWithItsFullName() {
        let error = #expect(throws: GraftError.self) { try Server(injecting: ["database.port": 1]) }
        #expect(
            error?.description == """
                Graft: cannot inject Server: 1 problem
                  1. Server is missing required key "database.host" (String)
                     add "database.host" to the injected values
                """
        )
    }

    @Test func optionalGroupRequiresItsKeysOnlyOnceUsed() throws {
        let server = try Server(injecting: ["database.host": "db"])
        #expect(server.proxy.host == "")

        let error = #expect(throws: GraftError.self) {
            try Server(injecting: ["database.host": "db", "proxy": ["port": 3128]])
        }
        #expect(
            error?.description == """
                Graft: cannot inject Server: 1 problem
                  1. Server is missing required key "proxy.host" (String)
                     add "proxy.host" to the injected values: it is required once any "proxy." key is given
                """
        )
    }

    @Test func groupGivenSomethingOtherThanKeysIsATypeMismatch() {
        let error = #expect(throws: GraftError.self) { try Server(injecting: ["database": "postgres://db"]) }
        #expect(
            error?.description == """
                Graft: cannot inject Server: 1 problem
                  1. Server.database expects the keys of Database, got String
                     set nested keys such as "database.host", or pass a [String: any Sendable] dictionary for "database"
                """
        )
    }

    @Test func dottedKeyPrefixGivenSomethingOtherThanKeysIsATypeMismatch() {
        let controller = ViewController()
        let error = #expect(throws: GraftError.self) { try controller.inject(["title": "T", "view": Color.white]) }
        #expect(
            error?.description == """
                Graft: cannot inject ViewController: 1 problem
                  1. ViewController.view expects nested keys, got Color
                     set nested keys such as "view.backgroundColor", or pass a [String: any Sendable] dictionary for "view"
                """
        )
    }

    @Test func keyGivenTwiceIsAProblem() {
        var settings = Settings()
        let error = #expect(throws: GraftError.self) {
            try settings.inject(["title": "Test", "view.cornerRadius": 1.0, "view": ["cornerRadius": 2.0]])
        }
        #expect(settings.view.cornerRadius == 0)
        #expect(
            error?.description == """
                Graft: cannot inject Settings: 1 problem
                  1. Settings is given key "view.cornerRadius" 2 times
                     pass it once; it is given inside "view" and as "view.cornerRadius"
                """
        )
    }

    @Test func keyDeclaredTwiceIsReported() {
        let error = #expect(throws: GraftError.self) { try Twice(injecting: ["name": "x"]) }
        #expect(
            error?.description == """
                Graft: cannot inject Twice: 1 problem
                  1. Twice declares injectable key "name" more than once
                     give each key in Twice.injectableKeys its own name
                """
        )
    }
}
