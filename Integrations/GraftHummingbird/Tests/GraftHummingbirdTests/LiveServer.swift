import Hummingbird
import HummingbirdTesting

extension ApplicationProtocol {
    /// Runs `body` against the app on a live server, as `test(.live, body)` does, once the test
    /// client's own HTTP connection is open.
    ///
    /// HummingbirdTesting's live client opens that connection in the background as the server
    /// starts, and closes it when the test ends. A test that ends before it has connected (one
    /// that only opens WebSockets, on a loaded machine) closes nothing, and the connection opens
    /// afterwards and stays open. A server with WebSocket upgrades does not close such an idle
    /// connection when it shuts down gracefully, so the test would wait for it for ever. A request
    /// made first (any answer will do) waits for the connection, so there is one to close.
    func testLive<Value: Sendable>(
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await test(.live) { client in
            _ = try await client.execute(uri: "/", method: .get)
            return try await body(client)
        }
    }
}
