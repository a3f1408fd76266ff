import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Injectable`'s own arguments: a lifetime, then `as:` and the types the registration
/// answers for.
struct MacroArguments {
    /// The lifetime as written (`.singleton`, `.scoped(in: Session.self)`); `nil` for transient.
    var lifetime: ExprSyntax?
    /// The alias types as written: `(any Engine).self`.
    var aliases: [String] = []

    init(_ node: AttributeSyntax) {
        guard let list = node.arguments?.as(LabeledExprListSyntax.self) else { return }
        var inAliases = false
        for element in list {
            if element.label?.text == "as" { inAliases = true }
            if inAliases {
                aliases.append(element.expression.trimmedDescription)
            } else if element.label == nil, lifetime == nil {
                lifetime = element.expression
            }
        }
    }

    /// The lifetime as messages spell it, when it is written out and shares its instances:
    /// `.singleton`, `.scoped(in:)`. A lifetime held in a variable is left to `build()`.
    var sharedLifetime: String? {
        guard let lifetime else { return nil }
        if let call = lifetime.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        {
            let labels = call.arguments.map { "\($0.label?.text ?? "_"):" }.joined()
            return ".\(member.declName.baseName.text)(\(labels))"
        }
        guard let member = lifetime.as(MemberAccessExprSyntax.self) else { return nil }
        let name = member.declName.baseName.text
        return ["singleton", "eagerSingleton", "scoped", "graph", "weak"].contains(name) ? ".\(name)" : nil
    }
}

/// The registration `@Injectable` writes: which `register` overload, with which arguments, and
/// the `ServiceName` types its `@Named("…")` parameters need.
struct RegistrationPlan {
    struct NameType {
        let name: String
        let literal: String
    }

    /// A parameter of the function handed to `register`.
    struct Slot {
        let index: Int
        let label: String?
        /// The type Graft resolves (or the caller passes): `Graft.Named<any Engine, _GraftName0>`.
        let dependencyType: String
        /// What the initializer receives: `p0`, or `p0.value` for a named dependency.
        let value: String
        let isArgument: Bool
    }

    let typeName: String
    let initializer: InjectableMacro.Initializer
    let lifetime: ExprSyntax?
    var slots: [Slot] = []
    var nameTypes: [NameType] = []
    let isAsync: Bool
    let isThrowing: Bool
    let isMainActor: Bool
    let isSoleInitializer: Bool
    /// Whether a parameter has an attribute: a property wrapper (`@Named`, `@Argument`).
    var hasWrappedParameter = false

    init?(
        _ initializer: InjectableMacro.Initializer,
        arguments: MacroArguments,
        declaration: some DeclGroupSyntax,
        typeName: String,
        node: AttributeSyntax,
        context: some MacroExpansionContext
    ) {
        self.typeName = typeName
        self.initializer = initializer
        self.lifetime = arguments.lifetime
        let typeIsMainActor = InjectableMacro.hasAttribute("MainActor", declaration.attributes)
        switch initializer {
        case .explicit(let decl):
            isAsync = decl.signature.effectSpecifiers?.asyncSpecifier != nil
            isThrowing = decl.signature.effectSpecifiers?.throwsClause != nil
            isMainActor =
                InjectableMacro.hasAttribute("MainActor", decl.attributes)
                || (typeIsMainActor && !decl.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) })
        case .memberwise, .implicitNoArguments:
            isAsync = false
            isThrowing = false
            isMainActor = typeIsMainActor
        }
        isSoleInitializer =
            declaration.memberBlock.members.filter { $0.decl.is(InitializerDeclSyntax.self) }.count <= 1

        var firstArgument: AttributeSyntax?
        for (index, parameter) in initializer.parameters.enumerated() {
            if let attributes = parameter.attributes, !attributes.isEmpty { hasWrappedParameter = true }
            let named = parameter.attribute("Named")
            let argument = parameter.attribute("Argument")
            if let named, let argument {
                context.diagnose(Diagnostic(node: argument, message: InjectableDiagnostic.namedArgument))
                _ = named
                return nil
            }
            var dependencyType = parameter.type
            var value = "p\(index)"
            if let named {
                guard let expression = named.arguments?.as(LabeledExprListSyntax.self)?.first?.expression else {
                    context.diagnose(Diagnostic(node: named, message: InjectableDiagnostic.nameNotLiteral))
                    return nil
                }
                if let literal = expression.as(StringLiteralExprSyntax.self),
                    literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) })
                {
                    let text = literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
                    guard !text.isEmpty else {
                        context.diagnose(Diagnostic(node: named, message: InjectableDiagnostic.emptyName))
                        return nil
                    }
                    let nameType = "_GraftName\(index)"
                    nameTypes.append(NameType(name: nameType, literal: literal.trimmedDescription))
                    dependencyType = "Graft.Named<\(parameter.type), \(nameType)>"
                } else if let member = expression.as(MemberAccessExprSyntax.self),
                    member.declName.baseName.text == "self", let base = member.base
                {
                    dependencyType = "Graft.Named<\(parameter.type), \(base.trimmedDescription)>"
                } else {
                    context.diagnose(Diagnostic(node: named, message: InjectableDiagnostic.nameNotLiteral))
                    return nil
                }
                value = "p\(index).value"
            }
            if argument != nil, firstArgument == nil { firstArgument = argument }
            slots.append(
                Slot(
                    index: index,
                    label: parameter.label,
                    dependencyType: dependencyType,
                    value: value,
                    isArgument: argument != nil
                )
            )
        }
        if let firstArgument {
            if let shared = arguments.sharedLifetime {
                context.diagnose(
                    Diagnostic(
                        node: firstArgument,
                        message: InjectableDiagnostic.argumentOnSharedLifetime(lifetime: shared),
                        fixIts: [
                            FixIt(
                                message: InjectableFixIt(
                                    message: "remove '\(shared)': make the registration transient"
                                ),
                                changes: [.replace(oldNode: Syntax(node), newNode: Syntax(Self.removingLifetime(node)))]
                            )
                        ]
                    )
                )
                return nil
            }
            if isMainActor {
                context.diagnose(Diagnostic(node: firstArgument, message: InjectableDiagnostic.argumentOnMainActor))
                return nil
            }
        }
    }

    /// The macro's attribute without its lifetime argument.
    static func removingLifetime(_ node: AttributeSyntax) -> AttributeSyntax {
        guard let list = node.arguments?.as(LabeledExprListSyntax.self) else { return node }
        let kept = list.filter { $0.label != nil || list.firstIndex(of: $0) != list.startIndex }
        guard !kept.isEmpty else {
            return node.with(\.leftParen, nil).with(\.arguments, nil).with(\.rightParen, nil)
        }
        var elements = Array(kept)
        if let last = elements.indices.last { elements[last].trailingComma = nil }
        return node.with(\.arguments, .argumentList(LabeledExprListSyntax(elements)))
    }

    /// Runtime arguments are matched by type: each declared argument type takes the first
    /// parameter of that type. When a dependency of the same type comes first, the function
    /// handed to `register` lists the arguments first.
    var argumentsComeFirst: Bool {
        var dependencyTypes: Set<String> = []
        for slot in slots {
            if slot.isArgument, dependencyTypes.contains(slot.dependencyType) { return true }
            if !slot.isArgument { dependencyTypes.insert(slot.dependencyType) }
        }
        return false
    }

    /// The statements of `register(in:)`: a local function around the initializer when one is
    /// needed, then `builder.register(RaceCar.self, lifetime: .singleton, fileID: …, line: …, using: …)`.
    func registerCall(fileID: String, line: String) -> [String] {
        let local = needsFunction ? [function] : []
        var arguments = ["\(typeName).self"]
        if let lifetime { arguments.append("lifetime: \(lifetime.trimmedDescription)") }
        let runtimeArguments = slots.filter(\.isArgument).map { "\($0.dependencyType).self" }
        if let first = runtimeArguments.first {
            arguments.append("arguments: \(first)")
            arguments += runtimeArguments.dropFirst()
        }
        arguments.append("fileID: \(fileID)")
        arguments.append("line: \(line)")
        arguments.append("\(isMainActor ? "usingMainActor" : "using"): \(needsFunction ? "make" : function)")
        return local + ["builder.register(\(arguments.joined(separator: ", ")))"]
    }

    /// Whether `register` is handed a local function around the initializer rather than the
    /// initializer itself: when Swift made the initializer, when an initializer without
    /// parameters is one of several (`Radio.init` would be ambiguous), or when a parameter has an
    /// attribute (`@Named`, `@Argument`: property wrappers, and a reference to an initializer
    /// with one is a closure in disguise). A function, not a closure: Swift
    /// infers the parameter pack of `register` from a function's type, not from a closure's
    /// parameter list.
    var needsFunction: Bool {
        switch initializer {
        case .explicit:
            return hasWrappedParameter || (slots.isEmpty && !isSoleInitializer)
        case .memberwise:
            return true
        case .implicitNoArguments:
            return false
        }
    }

    /// The function handed to `register`: the initializer itself, as a hand-written registration
    /// names it, or the local function `make` around it (see `needsFunction`).
    var function: String {
        guard needsFunction else {
            if slots.isEmpty { return "\(typeName).init" }
            let labels = slots.map { "\($0.label ?? "_"):" }.joined()
            return "\(typeName).init(\(labels))"
        }
        let ordered = argumentsComeFirst ? slots.filter(\.isArgument) + slots.filter { !$0.isArgument } : slots
        let parameters = ordered.map { "_ p\($0.index): \($0.dependencyType)" }.joined(separator: ", ")
        let call = slots.map { slot in slot.label.map { "\($0): \(slot.value)" } ?? slot.value }
            .joined(separator: ", ")
        let effects = (isAsync ? " async" : "") + (isThrowing ? " throws" : "")
        let marks = (isThrowing ? "try " : "") + (isAsync ? "await " : "")
        let isolation = isMainActor ? "@MainActor " : ""
        return
            "\(isolation)@Sendable func make(\(parameters))\(effects) -> \(typeName) { \(marks)\(typeName)(\(call)) }"
    }
}
