import Configuration
import Graft

enum Mode: String, CaseIterable, Sendable {
    case fast, safe
}

struct PoolSettings: KeyValueInitializable, Sendable {
    var size = 1
    var idleTimeout: Duration = .seconds(1)

    static let injectableKeys: InjectableKeys<PoolSettings> = [
        .required("size", \.size),
        .optional("idleTimeout", \.idleTimeout),
    ]
}

struct ServerSettings: KeyValueInitializable, Sendable {
    var host = ""
    var port: UInt16 = 0
    var verbose = false
    var ratio = 0.0
    var mode = Mode.safe
    var token: String?
    var tags: [String] = []
    var pool = PoolSettings()

    static let injectableKeys: InjectableKeys<ServerSettings> = [
        .required("host", \.host),
        .required("port", \.port),
        .optional("verbose", \.verbose),
        .optional("ratio", \.ratio),
        .optional("mode", \.mode),
        .optional("token", \.token),
        .optional("tags", \.tags),
        .nested("pool", \.pool),
    ]
}

struct Server: Sendable {
    let settings: ServerSettings
}

struct Picture: Sendable {}

struct Poster: KeyValueInitializable, Sendable {
    var picture = Picture()
    static let injectableKeys: InjectableKeys<Poster> = [.optional("picture", \.picture)]
}

func environment(_ variables: [String: String]) -> ConfigReader {
    ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: variables))
}

let validEnvironment = [
    "APP_HOST": "localhost", "APP_PORT": "8080", "APP_VERBOSE": "true", "APP_RATIO": "0.25",
    "APP_MODE": "fast", "APP_TAGS": "a,b", "APP_POOL_SIZE": "4", "APP_POOL_IDLE_TIMEOUT": "30",
]
