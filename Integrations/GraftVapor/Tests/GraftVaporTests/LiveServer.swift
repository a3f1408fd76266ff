import AsyncHTTPClient
import GraftVapor
import NIOCore
import Vapor

/// A Vapor application with Graft installed, serving on 127.0.0.1 on a port of the system's
/// choice, and an HTTP client for it.
struct LiveServer {
    let app: Application
    let client: HTTPClient
    let port: Int

    /// Starts `app` (already configured) and runs `body` against it; shuts both down afterwards.
    static func run<Result>(
        _ app: Application,
        connections: Int = 8,
        _ body: (LiveServer) async throws -> Result
    ) async throws -> Result {
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: connections
        )
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await app.server.start(address: nil)
            guard let port = app.http.server.shared.localAddress?.port else {
                throw Abort(.internalServerError, reason: "the server has no local port")
            }
            let result = try await body(LiveServer(app: app, client: client, port: port))
            try await client.shutdown()
            if !app.didShutdown {
                await app.server.shutdown()  // a server started by hand is not stopped by asyncShutdown()
                try await app.asyncShutdown()
            }
            return result
        } catch {
            try? await client.shutdown()
            if !app.didShutdown {
                await app.server.shutdown()
                try? await app.asyncShutdown()
            }
            throw error
        }
    }

    /// Sends a GET request and returns its status and body.
    func get(_ path: String) async throws -> (status: HTTPResponseStatus, body: String) {
        try await send(.GET, path)
    }

    /// Sends a request without a body and returns its status and body.
    func send(_ method: HTTPMethod, _ path: String) async throws -> (status: HTTPResponseStatus, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/\(path)")
        request.method = method
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status, String(buffer: body))
    }
}
