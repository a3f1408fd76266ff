import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@Injectable`: a conformance to Graft's `Injectable` whose `register(in:)` is the registration
/// a user would write by hand for the type's initializer.
public struct InjectableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        let typeName = type.trimmedDescription
        guard let kind = TypeKind(declaration) else {
            context.diagnose(
                Diagnostic(node: node, message: InjectableDiagnostic.notAType(kind: kindName(of: declaration)))
            )
            return []
        }
        guard !protocols.isEmpty else {
            context.diagnose(Diagnostic(node: node, message: InjectableDiagnostic.alreadyInjectable(type: typeName)))
            return []
        }
        let arguments = MacroArguments(node)
        guard let initializer = chooseInitializer(of: declaration, kind: kind, typeName: typeName, node, context),
            let plan = RegistrationPlan(
                initializer,
                arguments: arguments,
                declaration: declaration,
                typeName: typeName,
                node: node,
                context: context
            ),
            checkVisibility(initializer, of: declaration, typeName: typeName, node, context)
        else {
            return []
        }
        let location = context.location(
            of: nameToken(of: declaration) ?? Syntax(node),
            at: .afterLeadingTrivia,
            filePathMode: .fileID
        )
        let fileID = location?.file.trimmedDescription ?? "#fileID"
        let line = location?.line.trimmedDescription ?? "#line"
        let access = witnessAccess(of: declaration)
        let isolation = hasAttribute("MainActor", declaration.attributes) ? "nonisolated " : ""

        var body: [String] = []
        body += plan.registerCall(fileID: fileID, line: line)
        for alias in arguments.aliases {
            body.append("builder.alias(\(alias), to: \(typeName).self, fileID: \(fileID), line: \(line))")
        }
        let conformances = protocols.map(\.trimmedDescription).joined(separator: ", ")
        var lines = ["extension \(typeName): \(conformances) {"]
        for nameType in plan.nameTypes {
            lines.append("    \(access)enum \(nameType.name): Graft.ServiceName {")
            lines.append("        \(access)static let name = \(nameType.literal)")
            lines.append("    }")
            lines.append("")
        }
        lines.append("    \(access)\(isolation)static func register(in builder: inout Graft.ContainerBuilder) {")
        lines += body.map { "        \($0)" }
        lines.append("    }")
        lines.append("}")
        let decl = DeclSyntax("\(raw: lines.joined(separator: "\n"))")
        guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    // MARK: - The type

    /// The kinds of declaration `@Injectable` registers.
    enum TypeKind {
        case structure, classType, actorType

        init?(_ declaration: some DeclGroupSyntax) {
            if declaration.is(StructDeclSyntax.self) {
                self = .structure
            } else if declaration.is(ClassDeclSyntax.self) {
                self = .classType
            } else if declaration.is(ActorDeclSyntax.self) {
                self = .actorType
            } else {
                return nil
            }
        }
    }

    static func kindName(of declaration: some DeclGroupSyntax) -> String {
        if declaration.is(EnumDeclSyntax.self) { return "enum" }
        if declaration.is(ProtocolDeclSyntax.self) { return "protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "extension" }
        return "declaration"
    }

    static func nameToken(of declaration: some DeclGroupSyntax) -> Syntax? {
        if let decl = declaration.as(StructDeclSyntax.self) { return Syntax(decl.name) }
        if let decl = declaration.as(ClassDeclSyntax.self) { return Syntax(decl.name) }
        if let decl = declaration.as(ActorDeclSyntax.self) { return Syntax(decl.name) }
        return nil
    }

    /// The access `register(in:)` needs to witness the conformance: the type's own.
    static func witnessAccess(of declaration: some DeclGroupSyntax) -> String {
        switch AccessLevel(declaration.modifiers) {
        case .public: return "public "
        case .package: return "package "
        default: return ""
        }
    }

    // MARK: - The initializer

    /// The initializer `@Injectable` calls: written out, or the one Swift makes.
    enum Initializer {
        case explicit(InitializerDeclSyntax)
        /// A struct's memberwise initializer: its stored properties without a value.
        case memberwise([Parameter])
        /// The `init()` of a class or actor that declares none.
        case implicitNoArguments

        var parameters: [Parameter] {
            switch self {
            case .explicit(let decl): return decl.signature.parameterClause.parameters.map(Parameter.init)
            case .memberwise(let parameters): return parameters
            case .implicitNoArguments: return []
            }
        }
    }

    /// One parameter as the registration sees it.
    struct Parameter {
        let label: String?
        let type: String
        let attributes: AttributeListSyntax?

        init(_ syntax: FunctionParameterSyntax) {
            label = syntax.firstName.tokenKind == .wildcard ? nil : syntax.firstName.text
            type = syntax.type.trimmedDescription
            attributes = syntax.attributes
        }

        init(label: String, type: String) {
            self.label = label
            self.type = type
            self.attributes = nil
        }

        func attribute(_ name: String) -> AttributeSyntax? {
            attributes?.lazy.compactMap { $0.as(AttributeSyntax.self) }
                .first { $0.attributeName.trimmedDescription == name }
        }
    }

    static func chooseInitializer(
        of declaration: some DeclGroupSyntax,
        kind: TypeKind,
        typeName: String,
        _ node: AttributeSyntax,
        _ context: some MacroExpansionContext
    ) -> Initializer? {
        let initializers = declaration.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        let marked = initializers.filter { hasAttribute("Inject", $0.attributes) }
        if marked.count > 1, let second = marked.dropFirst().first, let mark = attribute("Inject", second.attributes) {
            context.diagnose(Diagnostic(node: mark, message: InjectableDiagnostic.severalInjectMarks(type: typeName)))
            return nil
        }
        if let chosen = marked.first {
            if let reason = whyNotCallable(chosen) {
                context.diagnose(
                    Diagnostic(
                        node: chosen.initKeyword,
                        message: InjectableDiagnostic.noCallableInitializer(type: typeName, reason: reason)
                    )
                )
                return nil
            }
            return .explicit(chosen)
        }
        if initializers.isEmpty {
            switch kind {
            case .structure: return .memberwise(storedProperties(of: declaration))
            case .classType, .actorType: return .implicitNoArguments
            }
        }
        let callable = initializers.filter { whyNotCallable($0) == nil }
        let designated = callable.filter { !$0.modifiers.contains { $0.name.tokenKind == .keyword(.convenience) } }
        let candidates = designated.isEmpty ? callable : designated
        guard let first = candidates.first else {
            // Every initializer was ruled out: the first one's reason stands for all.
            let reason = initializers.lazy.compactMap(whyNotCallable).first ?? ""
            context.diagnose(
                Diagnostic(
                    node: node,
                    message: InjectableDiagnostic.noCallableInitializer(type: typeName, reason: reason)
                )
            )
            return nil
        }
        guard candidates.count == 1 else {
            let fixIts = candidates.map { candidate in
                FixIt(
                    message: InjectableFixIt(message: "mark '\(signature(of: candidate))' with @Inject"),
                    changes: [.replace(oldNode: Syntax(candidate), newNode: Syntax(marking(candidate)))]
                )
            }
            context.diagnose(
                Diagnostic(
                    node: node,
                    message: InjectableDiagnostic.severalInitializers(type: typeName, count: candidates.count),
                    fixIts: fixIts
                )
            )
            return nil
        }
        return .explicit(first)
    }

    /// `initializer` with `@Inject` in front of it, on a line of its own.
    static func marking(_ initializer: InitializerDeclSyntax) -> InitializerDeclSyntax {
        let indentation = initializer.leadingTrivia.indentation
        var attribute = AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("Inject")))
        attribute.leadingTrivia = initializer.leadingTrivia
        attribute.trailingTrivia = .newline + indentation
        var marked = initializer
        marked.leadingTrivia = []
        if marked.attributes.isEmpty, let first = marked.modifiers.first {
            marked.modifiers[marked.modifiers.startIndex] = first.with(\.leadingTrivia, [])
        } else if marked.attributes.isEmpty {
            marked.initKeyword.leadingTrivia = []
        }
        marked.attributes = [.attribute(attribute)] + marked.attributes
        return marked
    }

    /// Why Graft cannot register the initializer, or `nil` when it can.
    static func whyNotCallable(_ initializer: InitializerDeclSyntax) -> String? {
        let name = signature(of: initializer)
        if initializer.optionalMark != nil {
            return "'\(name)' is failable, and a registration makes an instance, not an optional"
        }
        if initializer.genericParameterClause != nil {
            return "'\(name)' is generic, and Graft resolves each parameter by its one type"
        }
        for parameter in initializer.signature.parameterClause.parameters {
            if parameter.ellipsis != nil {
                return "'\(name)' takes a variadic parameter"
            }
            if let attributed = parameter.type.as(AttributedTypeSyntax.self),
                attributed.specifiers.contains(where: { $0.trimmedDescription == "inout" })
            {
                return "'\(name)' takes an inout parameter"
            }
            if parameter.type.is(SomeOrAnyTypeSyntax.self),
                parameter.type.as(SomeOrAnyTypeSyntax.self)?.someOrAnySpecifier.tokenKind == .keyword(.some)
            {
                return "'\(name)' takes an opaque ('some') parameter, and Graft resolves each parameter by its one type"
            }
        }
        return nil
    }

    /// `init(engine:transmission:)`, as messages name an initializer.
    static func signature(of initializer: InitializerDeclSyntax) -> String {
        let labels = initializer.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
        return "init\(initializer.optionalMark?.text ?? "")(\(labels))"
    }

    /// A struct's stored properties that its memberwise initializer takes without a default.
    static func storedProperties(of declaration: some DeclGroupSyntax) -> [Parameter] {
        var parameters: [Parameter] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: {
                    [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
                })
            else { continue }
            for binding in variable.bindings {
                guard binding.accessorBlock == nil, binding.initializer == nil,
                    let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                    let type = binding.typeAnnotation?.type
                else { continue }
                parameters.append(Parameter(label: name, type: type.trimmedDescription))
            }
        }
        return parameters
    }

    // MARK: - Visibility

    enum AccessLevel: Int, Comparable {
        case `private`, `fileprivate`, `internal`, `package`, `public`

        init(_ modifiers: DeclModifierListSyntax) {
            self = .internal
            for modifier in modifiers where modifier.detail == nil {
                switch modifier.name.tokenKind {
                case .keyword(.private): self = .private
                case .keyword(.fileprivate): self = .fileprivate
                case .keyword(.internal): self = .internal
                case .keyword(.package): self = .package
                case .keyword(.public), .keyword(.open): self = .public
                default: continue
                }
            }
        }

        var keyword: String {
            switch self {
            case .private: return "private"
            case .fileprivate: return "fileprivate"
            case .internal: return "internal"
            case .package: return "package"
            case .public: return "public"
            }
        }

        static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Reports an initializer less visible than the registration that calls it (the type's
    /// access: `register(in:)` is as visible as the conformance). A private or fileprivate type
    /// is registered from its own file, where every initializer is visible.
    static func checkVisibility(
        _ initializer: Initializer,
        of declaration: some DeclGroupSyntax,
        typeName: String,
        _ node: AttributeSyntax,
        _ context: some MacroExpansionContext
    ) -> Bool {
        let typeAccess = AccessLevel(declaration.modifiers)
        guard typeAccess >= .internal else { return true }
        switch initializer {
        case .explicit(let decl):
            let access = AccessLevel(decl.modifiers)
            guard access < typeAccess else { return true }
            let name = signature(of: decl)
            var raised = decl
            if let index = decl.modifiers.firstIndex(where: {
                AccessLevel([$0]) == access && $0.detail == nil && isAccessModifier($0)
            }) {
                raised.modifiers[index].name = .keyword(keywordKind(typeAccess), trailingTrivia: .space)
                    .with(\.leadingTrivia, decl.modifiers[index].name.leadingTrivia)
            } else {
                let modifier = DeclModifierSyntax(name: .keyword(keywordKind(typeAccess), trailingTrivia: .space))
                if decl.modifiers.isEmpty {
                    raised.initKeyword.leadingTrivia = []
                    raised.modifiers = [
                        modifier.with(\.leadingTrivia, decl.attributes.isEmpty ? [] : decl.initKeyword.leadingTrivia)
                    ]
                    if decl.attributes.isEmpty {
                        raised.modifiers[raised.modifiers.startIndex].leadingTrivia = decl.initKeyword.leadingTrivia
                    }
                } else {
                    raised.modifiers = [modifier] + decl.modifiers
                }
            }
            context.diagnose(
                Diagnostic(
                    node: decl.initKeyword,
                    message: InjectableDiagnostic.initializerLessVisible(
                        initializer: name,
                        access: access.keyword,
                        type: typeName,
                        typeAccess: typeAccess.keyword
                    ),
                    fixIts: [
                        FixIt(
                            message: InjectableFixIt(message: "make '\(name)' \(typeAccess.keyword)"),
                            changes: [.replace(oldNode: Syntax(decl), newNode: Syntax(raised))]
                        )
                    ]
                )
            )
            return false
        case .memberwise, .implicitNoArguments:
            guard typeAccess > .internal else { return true }
            context.diagnose(
                Diagnostic(
                    node: node,
                    message: InjectableDiagnostic.implicitInitializerLessVisible(
                        type: typeName,
                        typeAccess: typeAccess.keyword
                    )
                )
            )
            return false
        }
    }

    static func isAccessModifier(_ modifier: DeclModifierSyntax) -> Bool {
        [.keyword(.private), .keyword(.fileprivate), .keyword(.internal), .keyword(.package), .keyword(.public)]
            .contains(modifier.name.tokenKind)
    }

    static func keywordKind(_ access: AccessLevel) -> Keyword {
        switch access {
        case .private: return .private
        case .fileprivate: return .fileprivate
        case .internal: return .internal
        case .package: return .package
        case .public: return .public
        }
    }

    // MARK: - Attributes

    static func hasAttribute(_ name: String, _ attributes: AttributeListSyntax) -> Bool {
        attribute(name, attributes) != nil
    }

    static func attribute(_ name: String, _ attributes: AttributeListSyntax) -> AttributeSyntax? {
        attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
            .first { $0.attributeName.trimmedDescription == name }
    }
}

extension Trivia {
    /// The spaces and tabs after the last newline: a declaration's indentation.
    var indentation: Trivia {
        var pieces: [TriviaPiece] = []
        for piece in self {
            switch piece {
            case .newlines, .carriageReturnLineFeeds, .carriageReturns: pieces = []
            case .spaces, .tabs: pieces.append(piece)
            default: continue
            }
        }
        return Trivia(pieces: pieces)
    }
}
