import Graft
import Logging
import PostgresNIO

/// The server's settings, from environment variables (`ORDERS_PORT`, `ORDERS_DATABASE_PORT`, …),
/// read by GraftConfiguration: a misspelt `ORDERS_…` variable or a value of the wrong type stops
/// the server before it starts, with every problem in one message.
struct OrdersSettings: KeyValueInitializable, Sendable {
    /// `ORDERS_PORT`: the HTTP port on 127.0.0.1.
    var port = 8080
    /// `ORDERS_GRACE_PERIOD`, in seconds: how long requests in flight may go on after SIGTERM.
    var gracePeriod = Duration.seconds(10)
    /// `ORDERS_DEADLINE`, in seconds: how long after the grace period the process may still take
    /// to close what is left before it exits with status 1, naming what was still open.
    var deadline = Duration.seconds(5)
    /// `ORDERS_REQUEST_DEADLINE`, in seconds: how long a request may run before it is answered
    /// 503 and its scope (its transaction, its connection) is failed and closed.
    var requestDeadline = Duration.seconds(30)
    /// `ORDERS_START_TIMEOUT`, in seconds: how long starting may take (the client's run, the
    /// schema) before the server exits with status 1, naming what was still starting.
    var startTimeout = Duration.seconds(15)
    var database = DatabaseSettings()

    static let injectableKeys: InjectableKeys<OrdersSettings> = [
        .optional("port", \.port),
        .optional("gracePeriod", \.gracePeriod),
        .optional("deadline", \.deadline),
        .optional("requestDeadline", \.requestDeadline),
        .optional("startTimeout", \.startTimeout),
        .nested("database", \.database),
    ]
}

/// `ORDERS_DATABASE_HOST`, `_PORT`, `_USER`, `_PASSWORD`, `_NAME`.
struct DatabaseSettings: KeyValueInitializable, Sendable {
    var host = "127.0.0.1"
    var port = 5432
    var user = "postgres"
    /// A secret: Graft's messages never show configuration values.
    var password: String?
    var name = "orders"

    static let injectableKeys: InjectableKeys<DatabaseSettings> = [
        .optional("host", \.host),
        .optional("port", \.port),
        .optional("user", \.user),
        .optional("password", \.password),
        .optional("name", \.name),
    ]
}

extension PostgresClient {
    /// A client for the settings' database; its `run()` must be running while it is used.
    static func make(settings: OrdersSettings) -> PostgresClient {
        let database = settings.database
        return PostgresClient(
            configuration: .init(
                host: database.host,
                port: database.port,
                username: database.user,
                password: database.password,
                database: database.name,
                tls: .disable
            ),
            backgroundLogger: Logger(label: "postgres")
        )
    }
}
