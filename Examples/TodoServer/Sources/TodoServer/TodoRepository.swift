import Hummingbird
import SQLiteNIO

struct Todo: ResponseCodable {
    var id: Int
    var title: String
}

/// Reads and writes todos inside the request's unit of work.
struct TodoRepository: Sendable {
    let unitOfWork: UnitOfWork

    func all() async throws -> [Todo] {
        try await unitOfWork.connection.query("SELECT id, title FROM todos ORDER BY id").map { row in
            Todo(id: row.column("id")?.integer ?? 0, title: row.column("title")?.string ?? "")
        }
    }

    func add(title: String) async throws -> Todo {
        let rows = try await unitOfWork.connection.query(
            "INSERT INTO todos (title) VALUES (?) RETURNING id",
            [.text(title)]
        )
        return Todo(id: rows.first?.column("id")?.integer ?? 0, title: title)
    }
}
