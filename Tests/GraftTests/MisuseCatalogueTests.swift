import Foundation
import Testing

/// The repository files the catalogue check reads, found from this file's own path.
private enum RepositoryFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GraftTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let tests = root.appendingPathComponent("Tests/GraftTests")

    /// The catalogue of misuses: a DocC article, so the generated documentation carries it.
    static let catalogue = "Sources/Graft/Docs.docc/Articles/Errors.md"

    /// Where the catalogue used to live; it now only points to the article.
    static let formerCatalogue = "docs/errors.md"

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// Every test source, by file name without `.swift`: the core's, and those of each
    /// integration package (`Integrations/<Name>/Tests/<Target>/`), whose errors are catalogued too.
    static func testSources() throws -> [String: String] {
        var folders = [tests]
        let integrations = root.appendingPathComponent("Integrations")
        for package in (try? FileManager.default.contentsOfDirectory(atPath: integrations.path)) ?? [] {
            let packageTests = integrations.appendingPathComponent(package).appendingPathComponent("Tests")
            for target in (try? FileManager.default.contentsOfDirectory(atPath: packageTests.path)) ?? [] {
                folders.append(packageTests.appendingPathComponent(target))
            }
        }
        var sources: [String: String] = [:]
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift")
            {
                let url = folder.appendingPathComponent(name)
                sources[String(name.dropLast(".swift".count))] = try String(contentsOf: url, encoding: .utf8)
            }
        }
        return sources
    }
}

/// One row of the catalogue's table.
private struct CatalogueRow {
    let misuse: String
    /// The codes the "code" column names (its code spans that are identifiers).
    let codes: [String]
    /// The code spans of the "what the user reads" column.
    let messages: [String]
    /// The test files or suites the row names.
    let tests: [String]

    /// Reads the rows of the catalogue's table, skipping its header and separator.
    static func parse(_ markdown: String) -> [CatalogueRow] {
        markdown.split(separator: "\n").compactMap { line -> CatalogueRow? in
            guard line.hasPrefix("| "), !line.hasPrefix("| misuse ") else { return nil }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else { return nil }
            return CatalogueRow(
                misuse: cells[0],
                codes: codeSpans(in: cells[1]).filter { $0.allSatisfy(\.isLetter) },
                messages: codeSpans(in: cells[2]),
                tests: cells[3].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            )
        }
    }

    /// Markdown code spans: a run of backticks up to the next run of the same length, with one
    /// padding space on each side removed (so ``` `` a `b` `` ``` holds a backtick).
    static func codeSpans(in text: String) -> [String] {
        var spans: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`") {
            let fence = rest[open...].prefix { $0 == "`" }
            let afterOpen = rest[fence.endIndex...]
            guard let close = afterOpen.range(of: String(fence)) else { break }
            var span = afterOpen[..<close.lowerBound]
            if fence.count > 1, span.hasPrefix(" "), span.hasSuffix(" "), span.count > 1 {
                span = span.dropFirst().dropLast()
            }
            spans.append(String(span))
            rest = afterOpen[close.upperBound...]
        }
        return spans
    }

    /// The literal parts of a message: what surrounds each `…`, which stands for text that
    /// varies (an underlying error, a count).
    static func fragments(of message: String) -> [String] {
        message.split(separator: "…")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count >= 4 }
    }
}

/// How a message may be spelled in Swift source: as it reads, or inside a string literal with
/// its quotes and backslashes escaped.
private func spellings(of fragment: String) -> [String] {
    let escaped = fragment.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"")
    return escaped == fragment ? [fragment] : [fragment, escaped]
}

/// The Errors article promises every misuse with the message Graft gives and the test that
/// checks it. These tests keep that promise true as messages and tests change.
@Suite struct MisuseCatalogueTests {
    @Test func everyMessageInTheCatalogueIsCheckedByTheTestItNames() throws {
        let rows = CatalogueRow.parse(try RepositoryFiles.text(RepositoryFiles.catalogue))
        let sources = try RepositoryFiles.testSources()
        #expect(rows.count >= 25, "the catalogue's table was not found or lost rows")

        for row in rows {
            // A test is named by its file or by the suite it declares.
            var named: [String] = []
            for test in row.tests {
                let files = sources.filter { name, text in
                    name == test || text.contains("struct \(test) ") || text.contains("struct \(test){")
                }
                #expect(!files.isEmpty, "“\(row.misuse)” names \(test), which is no test file or suite")
                named += files.values
            }
            let literalParts = row.messages.flatMap(CatalogueRow.fragments(of:))
            #expect(
                !literalParts.isEmpty || row.misuse.hasPrefix("reading it directly"),
                "“\(row.misuse)” quotes no message"
            )
            for part in literalParts {
                let checked = named.contains { text in spellings(of: part).contains { text.contains($0) } }
                #expect(checked, "“\(row.misuse)”: no test in \(row.tests) checks the words “\(part)”")
            }
        }
    }

    @Test func everyErrorCodeHasACatalogueEntryAndEveryEntryARealCode() throws {
        let rows = CatalogueRow.parse(try RepositoryFiles.text(RepositoryFiles.catalogue))
        // `public static let notRegistered = Code(.notRegistered)` declares the code `notRegistered`.
        let declarations = try RepositoryFiles.text("Sources/Graft/GraftError.swift")
        let declared = Set(
            declarations.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let letIndex = words.firstIndex(of: "let"), words[..<letIndex].contains("static"),
                    line.contains("= Code("), words.indices.contains(letIndex + 1)
                else { return nil }
                return String(words[letIndex + 1])
            }
        )
        #expect(declared.count >= 19, "the codes were not found in GraftError.swift: \(declared)")

        let catalogued = Set(rows.flatMap(\.codes))
        #expect(declared.subtracting(catalogued).isEmpty, "codes with no row in the Errors article")
        #expect(catalogued.subtracting(declared).isEmpty, "the Errors article names codes Graft does not have")
    }

    @Test func theFormerCatalogueOnlyPointsToTheArticle() throws {
        // A row added to docs/errors.md (for instance by a branch started before the move) would
        // be checked by nothing; it belongs in the article.
        let rows = CatalogueRow.parse(try RepositoryFiles.text(RepositoryFiles.formerCatalogue))
        #expect(rows.isEmpty, "move these rows into \(RepositoryFiles.catalogue): \(rows.map(\.misuse))")
        #expect(try RepositoryFiles.text(RepositoryFiles.formerCatalogue).contains(RepositoryFiles.catalogue))
    }
}
