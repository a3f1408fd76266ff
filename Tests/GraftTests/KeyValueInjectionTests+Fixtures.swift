import Graft

// Fixtures for the keyed-value injection suites: the seeds' view controller with a
// `view.backgroundColor`, and settings with every kind of value. They are nested in the suite
// so that their names stay clear of other suites' fixtures.

extension KeyValueInjectionTests {
    enum Color: String, Sendable, CaseIterable {
        case white
        case black
    }

    enum Mode: String, Sendable {
        case road
        case track
    }

    protocol Engine: Sendable {
        var name: String { get }
    }

    struct RCEngine: Engine {
        var name: String { "RC" }
    }

    struct V12Engine: Engine {
        var name: String { "V12" }
    }

    struct ViewStyle: KeyValueInjectable, Equatable {
        var backgroundColor = Color.black
        var cornerRadius = 0.0

        static let injectableKeys: InjectableKeys<ViewStyle> = [
            .optional("backgroundColor", \.backgroundColor),
            .optional("cornerRadius", \.cornerRadius),
        ]
    }

    struct Settings: KeyValueInitializable, Equatable {
        var title = ""
        var retries = 0
        var verbose = false
        var timeout = 1.5
        var ratio: Float = 1
        var wheels: UInt8 = 4
        var mode = Mode.road
        var subtitle: String? = "none"
        var tags: [String] = []
        var limits: [String: Double] = [:]
        var view = ViewStyle()

        static let injectableKeys: InjectableKeys<Settings> = [
            .required("title", \.title),
            .optional("retries", \.retries),
            .optional("verbose", \.verbose),
            .optional("timeout", \.timeout),
            .optional("ratio", \.ratio),
            .optional("wheels", \.wheels),
            .optional("mode", \.mode),
            .optional("subtitle", \.subtitle),
            .optional("tags", \.tags),
            .optional("limits", \.limits),
            .nested("view", \.view),
        ]
    }

    /// A class whose child view is a `let` constant of class type, as `UIViewController.view` is to its controller.
    final class View {
        var backgroundColor = Color.black
    }

    final class ViewController: KeyValueInitializable {
        var title = ""
        var engine: any Engine = RCEngine()
        let view = View()

        static let injectableKeys: InjectableKeys<ViewController> = [
            .required("title", \.title),
            .optional("engine", \.engine),
            .optional("view.backgroundColor", \.view.backgroundColor),
        ]
    }

    struct Proxy: KeyValueInjectable {
        var host = ""
        var port = 8080

        static let injectableKeys: InjectableKeys<Proxy> = [
            .required("host", \.host),
            .optional("port", \.port),
        ]
    }

    struct Database: KeyValueInjectable {
        var host = ""
        var port = 5432

        static let injectableKeys: InjectableKeys<Database> = [
            .required("host", \.host),
            .optional("port", \.port),
        ]
    }

    struct Server: KeyValueInitializable {
        var name = "server"
        var database = Database()
        var proxy = Proxy()

        static let injectableKeys: InjectableKeys<Server> = [
            .optional("name", \.name),
            .nested("database", \.database),
            .nested("proxy", \.proxy, required: false),
        ]
    }

    /// A type that doesn't conform: its keys are declared by whoever injects it.
    struct Label {
        var text = ""
        var style = ViewStyle()
    }

    struct Empty: KeyValueInitializable {
        static let injectableKeys: InjectableKeys<Empty> = []
    }

    struct Twice: KeyValueInitializable {
        var name = ""

        static let injectableKeys: InjectableKeys<Twice> = [
            .optional("name", \.name),
            .required("name", \.name),
        ]
    }

    /// What an activation hook `(inout T, any Resolver) throws -> Void` would call.
    static func activate<T: KeyValueInjectable>(_ instance: inout T, with values: [String: any Sendable]) throws {
        try instance.inject(values)
    }
}
