public import Fluent
public import Graft
public import Vapor

extension ContainerBuilder {
    /// Registers the request's Fluent `Database` and its ``FluentTransaction`` as scoped
    /// services: each request (and each WebSocket message) gets the database on its own event
    /// loop, and a transaction that commits in the completion step and rolls back otherwise.
    ///
    /// ```swift
    /// app.databases.use(.sqlite(.memory), as: .sqlite)
    /// var builder = ContainerBuilder()
    /// builder.registerRequestValues()
    /// builder.registerFluent(app)
    /// ```
    ///
    /// - `any Database` is what `req.db` is: the application's database with the request's
    ///   logger, on the request's event loop (never `eventLoopGroup.any()`), limited by the
    ///   application's page size. Services take it as a parameter like any other dependency.
    /// - ``FluentTransaction`` begins on that database the first time a request resolves it, and
    ///   commits in the request's completion step, after the handler returned and before the
    ///   response is sent; a request that fails, overruns its deadline or never completes rolls
    ///   back when its scope closes.
    ///
    /// Both need the values GraftVapor's `registerRequestValues()`
    /// declares (the request's `Logger` and event loop): `build()` reports them missing otherwise.
    ///
    /// - Parameters:
    ///   - application: The application whose `databases` are configured.
    ///   - id: The database to use, or `nil` for the default one.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    public mutating func registerFluent(
        _ application: Application,
        database id: DatabaseID? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        let databases = application.databases
        let pageSizeLimit = application.fluent.pagination.pageSizeLimit
        register(
            (any Database).self,
            lifetime: .scoped,
            dependencies: [Requirement(Logger.self), Requirement((any EventLoop).self)],
            fileID: fileID,
            line: line
        ) { resolver in
            let (logger, eventLoop) = (try resolver.resolve(Logger.self), try resolver.resolve((any EventLoop).self))
            guard let database = databases.database(id, logger: logger, on: eventLoop, pageSizeLimit: pageSizeLimit)
            else {
                throw GraftError(
                    .factoryFailed,
                    "no Fluent database \(id.map { "\"\($0.string)\"" } ?? "(the default)") is configured",
                    service: "any Database",
                    hints: [
                        "configure it before the container is used: app.databases.use(.sqlite(.memory), as: .sqlite)"
                    ]
                )
            }
            return database
        }
        register(
            FluentTransaction.self,
            lifetime: .scoped,
            fileID: fileID,
            line: line,
            using: FluentTransaction.begin(on:)
        )
        onComplete(FluentTransaction.self, fileID: fileID, line: line)
    }
}
